import { expect, it } from 'vitest';
import { CLIENT_TYPES, descriptorOfKind } from '@/lib/channels/descriptors';
import { CHANNEL_MODULES } from './modules';
import { channelFor } from './registry';

it("each channel module is its kind's, once, and its adapter serves its kind's client type", () => {
  const kinds = CHANNEL_MODULES.map((m) => m.kind);
  expect(new Set(kinds).size).toBe(kinds.length);
  for (const module of CHANNEL_MODULES) {
    expect(descriptorOfKind(module.kind), module.kind).toBeDefined();
    expect(module.adapter.clientType).toBe(CLIENT_TYPES[module.kind]);
    expect(channelFor(CLIENT_TYPES[module.kind])).toBe(module.adapter);
  }
});

it('a client type with no module answers that no adapter is available, naming its type', async () => {
  const result = await channelFor(42).send(
    { id: 1, platformId: '17841400000000001', groupId: '1', clientType: 42 } as never,
    { text: 'hi', attachments: [], buttons: null, blockId: null },
    {} as never,
  );
  expect(result).toEqual({
    delivered: false,
    error: 'No channel adapter for client type 42 is available on this server yet.',
  });
});
