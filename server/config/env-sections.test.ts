import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { descriptorOfKind } from '@/lib/channels/descriptors';
import type { ChannelModule } from '@/server/channels/channel-module';
import { CHANNEL_MODULES } from '@/server/channels/modules';
import { EnvError, resetEnvCache } from './env';

/**
 * A channel kind's configuration variables are its module's section (`<kind>/env.ts`), read and
 * checked like the core's: a wrong value is an EnvError naming the variable, and tests that change
 * one see it after resetEnvCache.
 */
const modules: readonly ChannelModule[] = CHANNEL_MODULES;
const saved = { ...process.env };

afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
});

describe('channel modules own their configuration variables', () => {
  it('every kind variable is its own kind’s, named BLOCKBOT_<KIND>_…', () => {
    const sections = modules.flatMap((m) => (m.env ? [{ kind: m.kind, variables: m.env.variables }] : []));
    expect(sections.map((s) => s.kind)).toEqual(
      expect.arrayContaining(['tg', 'chatapp', 'social', 'telephony']),
    );
    for (const { kind, variables } of sections)
      for (const name of variables) expect(name).toMatch(new RegExp(`^BLOCKBOT_${kind.toUpperCase()}_`));
  });

  it('every kind variable is documented on its kind’s setup page, with its default', () => {
    for (const module of modules) {
      if (!module.env) continue;
      const page = descriptorOfKind(module.kind)?.doc?.page;
      expect(page, `${module.kind} has variables but no setup page (its descriptor's doc)`).toBeTruthy();
      const text = fs.readFileSync(path.join(import.meta.dirname, '../../docs', `${page}.md`), 'utf8');
      for (const name of module.env.variables)
        expect(text, `${page}.md`).toMatch(new RegExp(`\\| \`${name}\` \\|`));
    }
  });

  it('a wrong value is refused naming the variable and what it must be', () => {
    const tg = modules.find((m) => m.kind === 'tg')!;
    process.env.BLOCKBOT_TG_RETRY_SECONDS = 'soon';
    resetEnvCache();
    expect(() => tg.env?.()).toThrow(EnvError);
    expect(() => tg.env?.()).toThrow(/BLOCKBOT_TG_RETRY_SECONDS: .*number/);
  });

  it('reads a changed value after resetEnvCache, and the default when unset', () => {
    const chatapp = modules.find((m) => m.kind === 'chatapp')!;
    delete process.env.BLOCKBOT_CHATAPP_HOLD_HOURS;
    resetEnvCache();
    expect(chatapp.env?.()).toMatchObject({ BLOCKBOT_CHATAPP_HOLD_HOURS: 24 });
    process.env.BLOCKBOT_CHATAPP_HOLD_HOURS = '2';
    expect(chatapp.env?.()).toMatchObject({ BLOCKBOT_CHATAPP_HOLD_HOURS: 24 });
    resetEnvCache();
    expect(chatapp.env?.()).toMatchObject({ BLOCKBOT_CHATAPP_HOLD_HOURS: 2 });
  });
});
