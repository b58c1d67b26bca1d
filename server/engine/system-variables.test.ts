import { describe, expect, it } from 'vitest';
import { SYSTEM_VARIABLES } from '@/lib/formula/known-variables';
import { type SystemState, systemVariable } from './system-variables';

const state: SystemState = {
  clientId: 7,
  platformId: 'user:1',
  clientType: 99,
  groupId: 'sim',
  clientName: 'Ann',
  clientCreatedAt: new Date('2026-01-02T10:00:00Z'),
  question: 'hi',
  currentBlockId: 3,
  customAnswer: '{}',
  dealId: 5,
  attachmentUrl: '',
  callbackQueryId: '',
  messageFromOutside: 0,
  messenger: 'simulator',
  timeZone: 'Europe/Berlin',
  now: new Date('2026-03-02T08:05:00Z'),
};

describe('system variables', () => {
  it('the engine computes every one the editor offers (lib/formula lists them once)', () => {
    for (const { name } of SYSTEM_VARIABLES) expect(systemVariable(state, name), name).toBeTypeOf('string');
    expect(systemVariable(state, 'price')).toBeUndefined();
  });

  it('gives dates and times in the project time zone', () => {
    expect(systemVariable(state, 'current_date')).toBe('02.03.2026');
    expect(systemVariable(state, 'current_time')).toBe('09:05');
    expect(systemVariable(state, 'date_of_creation')).toBe('02.01.2026');
  });
});
