import { describe, expect, it } from 'vitest';
import { type PlatformRefusals, refusal, refusalCause } from './refusal';

const words: PlatformRefusals = {
  platform: 'The API',
  causes: { bad_key: 'credential', down: 'unreachable' },
  credential: (description, what) => `The API took no key to ${what} (${description}).`,
};

describe('refusal', () => {
  it('tells a refused credential, an unreachable platform and a refused call apart by the client’s reason', () => {
    expect(refusal({ reason: 'bad_key', description: '401' }, 'read it', words)).toBe(
      'The API took no key to read it (401).',
    );
    expect(refusal({ reason: 'down', description: 'timeout' }, 'read it', words)).toBe(
      'The API could not be reached to read it: timeout',
    );
    expect(refusal({ reason: 'other', description: '400 bad' }, 'read it', words)).toBe(
      'The API refused to read it: 400 bad',
    );
    expect(refusalCause({ reason: 'down', description: '' }, words)).toBe('unreachable');
    expect(refusalCause({ reason: 'toString', description: '' }, words)).toBe('refused');
  });
});
