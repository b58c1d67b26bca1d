import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LiveEvent, subscribeLive } from '@/server/live/live-events';
import { DRAFT_MAX_CHARS, draftPublisher } from './draft-stream';

afterEach(() => {
  vi.useRealTimers();
});

function drafts(clientId: number) {
  const seen: string[] = [];
  const stop = subscribeLive({ projectId: 901, clientId }, (event: LiveEvent) => {
    if (event.kind === 'draft') seen.push(event.text);
  });
  return { seen, stop };
}

describe("an AI answer's drafts", () => {
  it('sends the text so far at once, then at most one draft per interval, and the last one always', () => {
    vi.useFakeTimers();
    const { seen, stop } = drafts(1);
    const publisher = draftPublisher(901, 1);
    publisher.onText('Hel');
    expect(seen).toEqual(['Hel']);
    publisher.onText('lo');
    publisher.onText(', Ann');
    expect(seen).toEqual(['Hel']);
    vi.advanceTimersByTime(150);
    expect(seen).toEqual(['Hel', 'Hello, Ann']);
    publisher.onText('!');
    publisher.end();
    expect(seen).toEqual(['Hel', 'Hello, Ann', 'Hello, Ann!']);
    vi.advanceTimersByTime(1000);
    expect(seen).toHaveLength(3);
    stop();
  });

  it('takes back the text shown when the call fails after it', () => {
    vi.useFakeTimers();
    const { seen, stop } = drafts(5);
    const publisher = draftPublisher(901, 5);
    publisher.onText('Half of this ');
    publisher.onText('answer');
    publisher.end(true);
    expect(seen).toEqual(['Half of this ', '']);
    vi.advanceTimersByTime(1000);
    expect(seen).toHaveLength(2);
    stop();
  });

  it('cuts a long answer, so the event stays under the notification limit', () => {
    const { seen, stop } = drafts(2);
    draftPublisher(901, 2).onText('я'.repeat(DRAFT_MAX_CHARS + 500));
    expect(seen[0]).toHaveLength(DRAFT_MAX_CHARS + 1);
    expect(Buffer.byteLength(JSON.stringify({ kind: 'draft', text: seen[0] }))).toBeLessThan(7000);
    stop();
  });

  it("reaches only that client's listeners", () => {
    const other = drafts(3);
    draftPublisher(901, 4).onText('secret plan');
    expect(other.seen).toEqual([]);
    other.stop();
  });
});
