import { describe, expect, it } from 'vitest';
import { chatappPreview } from './chatapp-preview';

const reply = (text: string) => ({ type: 'reply' as const, text });

describe('a bot message as the chat-app messenger shows it', () => {
  it('puts up to 3 short buttons under the bubble', () => {
    expect(chatappPreview({ text: 'Pay?', attachments: [], buttons: [reply('Yes'), reply('No')] })).toEqual([
      { text: 'Pay?', replyButtons: ['Yes', 'No'] },
    ]);
  });

  it('puts 4 to 10 behind a list button, and more in numbered text', () => {
    const four = ['S', 'M', 'L', 'XL'].map(reply);
    expect(chatappPreview({ text: 'Size?', attachments: [], buttons: four })).toEqual([
      { text: 'Size?', replyButtons: [], list: { button: 'Choose', rows: ['S', 'M', 'L', 'XL'] } },
    ]);
    const eleven = Array.from({ length: 11 }, (_, i) => reply(`n${i + 1}`));
    const [numbered] = chatappPreview({ text: 'Pick', attachments: [], buttons: eleven });
    expect(numbered.replyButtons).toEqual([]);
    expect(numbered.text).toContain('11. n11');
  });

  it('shows a captioned photo, and files before the text', () => {
    expect(
      chatappPreview({
        text: 'Menu',
        attachments: [{ type: 'image', url: 'https://x.test/m.png' }],
        buttons: null,
      }),
    ).toEqual([{ text: 'Menu', media: { kind: 'Photo', url: 'https://x.test/m.png' }, replyButtons: [] }]);
  });
});
