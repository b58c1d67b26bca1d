import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientDisplayName, messengerLabel } from '@/lib/client-display';
import { capabilitiesOf, messengersOf } from '@/lib/schema/lint';
import {
  CHANNEL_DESCRIPTORS,
  CLIENT_TYPES,
  clientIdentity,
  descriptorOfKind,
  messengerApiName,
} from './descriptors';

describe('the channel descriptors', () => {
  it('name each kind, type, interface name and label once', () => {
    for (const key of ['kind', 'clientType', 'apiName', 'label'] as const) {
      const values = CHANNEL_DESCRIPTORS.map((d) => d[key]);
      expect(new Set(values).size, key).toBe(values.length);
    }
    // bot-semantics §8's numbers; a kind added later brings its own (its descriptor's entry is enough).
    expect(CLIENT_TYPES).toMatchObject({
      tg: 1,
      widget: 5,
      chatapp: 6,
      social: 10,
      telephony: 13,
      simulator: 99,
    });
  });

  it('are what the screens, the API and lint read', () => {
    expect(messengerLabel(CLIENT_TYPES.widget)).toBe('Web widget');
    expect(messengerLabel(42)).toBe('Type 42');
    expect(clientDisplayName({ id: 7, name: ' ', clientType: CLIENT_TYPES.telephony })).toBe('Caller 7');
    expect(messengerApiName(CLIENT_TYPES.widget)).toBe('online_chat');
    expect(messengerApiName(42)).toBe('42');
    expect(descriptorOfKind('chatapp')?.capabilities).toMatchObject({ maxButtons: 10, templates: true });
    // Kinds that show every block bring no limits to lint; the others bring theirs.
    expect(capabilitiesOf('widget')).toBeUndefined();
    expect(messengersOf(['tg', 'widget', 'simulator', 'telephony'])).toEqual([
      { name: 'tg', buttons: true, maxButtons: 100 },
      { name: 'telephony', buttons: true, maxButtons: 9, media: [] },
    ]);
  });
});

it("say how a client's identity is stored: phone numbers in one form, telephony with no line", () => {
  const identity = (clientType: number, platformId: string) =>
    clientIdentity({ clientType, groupId: 'line', platformId });
  expect(identity(CLIENT_TYPES.chatapp, '+7 900 123-45-67@c.us')).toEqual({
    groupId: 'line',
    platformId: '79001234567',
  });
  expect(identity(CLIENT_TYPES.telephony, '+1 (415) 555-2671')).toEqual({
    groupId: '',
    platformId: '14155552671',
  });
  // Opaque ids are the messenger's own: a tg chat id with a minus stays as it is.
  expect(identity(CLIENT_TYPES.tg, '-100123')).toEqual({ groupId: 'line', platformId: '-100123' });
});

/** The app's source files: every file but tests, generated code and test helpers. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ['generated', 'testing', 'fixtures', 'node_modules'].includes(entry.name)
        ? []
        : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const root = path.resolve(import.meta.dirname, '..', '..');
const here = path.join(root, 'lib', 'channels', 'descriptors.ts');

it('no table of messenger types, names or labels is written outside the descriptors', () => {
  // In code's quotes (JSX attributes, in double quotes, name other things: the Simulator panel).
  const quoted = (text: string) => `['\`]${text}['\`]`;
  const patterns = CHANNEL_DESCRIPTORS.flatMap((d) => [
    // 1: 'tg', tg: 1, [1]: 'Telegram'
    new RegExp(`[\\[\\s{,]${d.clientType}\\]?\\s*:\\s*${quoted(`(${d.apiName}|${d.label})`)}`),
    new RegExp(`\\b${d.kind}\\s*:\\s*${d.clientType}\\b`),
    // A label or a client's word for it, as a string of its own.
    new RegExp(quoted(d.label)),
    new RegExp(quoted(d.person)),
  ]).concat(
    // A client type compared with its number.
    new RegExp(
      `(clientType|client_type)['"]?\\s*[!=]==?\\s*(${CHANNEL_DESCRIPTORS.map((d) => d.clientType).join('|')})\\b`,
    ),
  );
  const found = ['lib', 'server', 'app', 'components'].flatMap((dir) =>
    sourceFiles(path.join(root, dir))
      .filter((file) => file !== here)
      .flatMap((file) =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            patterns.some((p) => p.test(line))
              ? [`${path.relative(root, file)}:${i + 1}: ${line.trim()}`]
              : [],
          ),
      ),
  );
  expect(found, 'use lib/channels/descriptors.ts (CLIENT_TYPES, messengerLabel, messengerApiName)').toEqual(
    [],
  );
});
