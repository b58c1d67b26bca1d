import { describe, expect, it } from 'vitest';
import { exportFileName } from './export-file-name';

const may1 = new Date(2026, 4, 1, 23, 59);

describe('the exported bot file name', () => {
  it('is the project name and the local day', () => {
    expect(exportFileName('Shop bot', may1)).toBe('shop-bot-2026-05-01.json');
    expect(exportFileName('  Orders / Returns: v2 ', may1)).toBe('orders-returns-v2-2026-05-01.json');
    expect(exportFileName('Пицца 24', may1)).toBe('пицца-24-2026-05-01.json');
  });

  it('falls back to "bot" for a name with nothing a file name can keep', () => {
    expect(exportFileName('***', may1)).toBe('bot-2026-05-01.json');
  });
});
