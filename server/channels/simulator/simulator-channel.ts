import { type ChannelAdapter, CLIENT_TYPES } from '../channel-adapter';

/**
 * The builder's test chat. Messages are read from the history, so sending only succeeds;
 * messenger functions are recorded in the engine log with what they would have done.
 */
export const simulatorChannel: ChannelAdapter = {
  clientType: CLIENT_TYPES.simulator,
  deliveredWhenStored: true,
  async send() {
    return { delivered: true };
  },
  async call(_projectId, fn, args) {
    if (fn.startsWith('tg_get_command'))
      return new Map<string, unknown>([
        ['ok', true],
        ['result', []],
      ]);
    if (fn.startsWith('tg_get_')) return '';
    return { simulated: true, fn, args };
  },
};
