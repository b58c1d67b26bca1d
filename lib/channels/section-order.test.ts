import { describe, expect, it } from 'vitest';
import { orderChannelKinds } from './section-order';

const KINDS = ['tg', 'chatapp', 'social', 'telephony', 'viber', 'widget'];

describe('orderChannelKinds', () => {
  it('puts the widget first when nothing is connected, every other kind folded', () => {
    expect(orderChannelKinds(KINDS, new Set())).toEqual([
      { kind: 'widget', open: true },
      { kind: 'tg', open: false },
      { kind: 'chatapp', open: false },
      { kind: 'social', open: false },
      { kind: 'telephony', open: false },
      { kind: 'viber', open: false },
    ]);
  });

  it('puts connected kinds first, in the registry order, then the widget, then the rest', () => {
    expect(orderChannelKinds(KINDS, new Set(['viber', 'chatapp'])).map((s) => `${s.kind}:${s.open}`)).toEqual(
      ['chatapp:true', 'viber:true', 'widget:true', 'tg:false', 'social:false', 'telephony:false'],
    );
    expect(orderChannelKinds(KINDS, new Set(['widget', 'tg'])).map((s) => s.kind)).toEqual([
      'tg',
      'widget',
      'chatapp',
      'social',
      'telephony',
      'viber',
    ]);
  });
});
