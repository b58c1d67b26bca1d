import { describe, expect, it } from 'vitest';
import { sendWithRetry, WidgetApiError } from './api';

describe('sendWithRetry', () => {
  it('sends again with the same id while the answer is lost, until it gets one', async () => {
    const ids: string[] = [];
    await sendWithRetry(
      async (id) => {
        ids.push(id);
        if (ids.length < 3) throw new WidgetApiError(ids.length === 1 ? 0 : 502, 'lost');
      },
      [0, 0, 0],
    );
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it('does not send again what the server refused, and gives up after the last delay', async () => {
    let calls = 0;
    const refused = sendWithRetry(async () => {
      calls++;
      throw new WidgetApiError(429, 'Too many messages');
    }, [0, 0]);
    await expect(refused).rejects.toThrow('Too many messages');
    expect(calls).toBe(1);

    calls = 0;
    const offline = sendWithRetry(async () => {
      calls++;
      throw new WidgetApiError(0, 'No connection');
    }, [0, 0]);
    await expect(offline).rejects.toThrow('No connection');
    expect(calls).toBe(3);
  });

  it('gives each message its own id', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) await sendWithRetry(async (id) => void ids.push(id));
    expect(new Set(ids).size).toBe(3);
  });
});
