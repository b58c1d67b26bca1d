import { z } from 'zod';
import type { Db } from '@/server/db/client-type';

/**
 * How clients see a member in the chat widget (docs/inbox.md, "How clients see you"): the name
 * and photo beside their replies. Each member sets their own, per project; never the e-mail.
 */
export const chatProfileInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: 'Type the name clients see beside your replies.' })
    .max(100, { error: 'The name has at most 100 characters.' }),
  avatarUrl: z
    .string()
    .trim()
    .max(2000, { error: 'The photo address has at most 2,000 characters.' })
    .refine((url) => url === '' || /^https?:\/\/[^\s]+$/i.test(url), {
      error:
        'The photo must be an http(s) address of an image, like https://example.com/me.png, or empty for none.',
    }),
});
export type ChatProfile = z.infer<typeof chatProfileInput>;

export async function chatProfile(db: Db, memberId: number): Promise<ChatProfile> {
  const member = await db.projectMember.findUniqueOrThrow({
    where: { id: memberId },
    select: { name: true, avatarUrl: true, user: { select: { name: true } } },
  });
  return { name: member.name || member.user?.name || '', avatarUrl: member.avatarUrl };
}

export async function setChatProfile(db: Db, memberId: number, profile: ChatProfile): Promise<ChatProfile> {
  return db.projectMember.update({
    where: { id: memberId },
    data: { name: profile.name, avatarUrl: profile.avatarUrl },
    select: { name: true, avatarUrl: true },
  });
}
