import { z } from 'zod';

/** What a message can carry (bot-semantics §5); its own module so conversation tests share it. */
export const ATTACHMENT_TYPES = ['image', 'video', 'link', 'file', 'audio'] as const;
export const attachmentTypeSchema = z.enum(ATTACHMENT_TYPES);
