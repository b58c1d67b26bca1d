import { type PresenceInput, presenceInputSchema } from '@/lib/schema/draft-presence';
import { parseInput } from '@/server/errors';
import { publishLive } from '@/server/live/live-events';

/**
 * A designer's presence on the bot (docs/builder.md, "Working together"), told to the other
 * canvases through the live channel (across instances in server mode). Nothing is stored: a
 * canvas that stops sending is forgotten after PRESENCE_TTL_MS.
 */
export function announcePresence(
  projectId: number,
  member: { id: number; name: string },
  input: PresenceInput,
): void {
  const presence = parseInput(presenceInputSchema, input);
  publishLive([{ kind: 'presence', projectId, memberId: member.id, name: member.name, ...presence }]);
}
