import { describe, expect, it } from 'vitest';
import { channelReach } from './channel-reach';

const tg = (receiving = true) => ({ kind: 'tg', receiving, widget: null });
const widget = (allowedOrigins: string[]) => ({
  kind: 'widget',
  receiving: true,
  widget: { settings: { allowedOrigins } },
});

describe('where clients reach the bot', () => {
  it('counts a chat widget on a website: the bot does not talk only in the simulator', () => {
    expect(channelReach([widget(['https://shop.example'])])).toEqual({
      live: true,
      text: 'Clients reach the bot through 1 chat widget on your website.',
    });
  });

  it('counts tg bots that receive and widgets with a site, together', () => {
    expect(
      channelReach([tg(), tg(), widget(['https://a.example']), widget(['https://b.example'])]).text,
    ).toBe('Clients reach the bot through 2 tg bots and 2 chat widgets on your websites.');
  });

  it('counts chat-app numbers by their name', () => {
    expect(channelReach([tg(), { kind: 'chatapp', receiving: true, widget: null }]).text).toBe(
      'Clients reach the bot through 1 tg bot and 1 chat-app number.',
    );
  });

  it('tells a newcomer how to let clients in when nothing reaches the bot', () => {
    for (const channels of [[], [tg(false)], [widget([])]]) {
      const reach = channelReach(channels);
      expect(reach.live).toBe(false);
      expect(reach.text).toContain('only in the builder’s simulator');
      expect(reach.text).toContain(
        'Create a chat widget and allow your website, or set up a messenger below',
      );
    }
  });
});
