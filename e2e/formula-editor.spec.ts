import { expect, test } from '@playwright/test';
import { monacoFocusEnd as focusEnd, saved, signUp, monacoText as text } from './helpers';

test.use({ viewport: { width: 1600, height: 1000 } });

test('the formula editor completes built-ins and variables, shows signature help, hover docs and error markers', async ({
  page,
}) => {
  // Every state of the page, as it changes: how many controls the field "Formula" had at once
  // (its label's id on an element, or the name as an aria-label). Monaco replaces a text area.
  await page.addInitScript(() => {
    const seen = window as unknown as { mostFormulaControls: number };
    seen.mostFormulaControls = 0;
    const controls = () => {
      const found = new Set(document.querySelectorAll('[aria-label="Formula"]'));
      for (const label of document.querySelectorAll('label'))
        if (label.textContent === 'Formula' && label.htmlFor)
          for (const el of document.querySelectorAll(`[id="${CSS.escape(label.htmlFor)}"]`)) found.add(el);
      return found.size;
    };
    new MutationObserver(() => {
      seen.mostFormulaControls = Math.max(seen.mostFormulaControls, controls());
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await signUp(page, `formula-${Date.now()}@example.com`);
  await saved(page);
  await page.getByTestId('block-2').click();
  const panel = page.getByRole('complementary', { name: 'Block editor' });
  const formula = panel.getByTestId('formula-editor');
  await expect(formula.locator('.monaco-editor')).toBeVisible();
  // The label names Monaco's text area, and never it and the text area it replaced at once.
  await expect(panel.getByLabel('Formula', { exact: true })).toHaveClass(/inputarea/);
  expect(
    await page.evaluate(() => (window as unknown as { mostFormulaControls: number }).mostFormulaControls),
  ).toBe(1);
  await expect.poll(() => text(formula)).toContain('price = round(base * 1.2, 2)');

  // Completion of a built-in, picked from the list, with its signature beside it.
  await focusEnd(page, formula);
  await page.keyboard.press('Enter');
  await page.keyboard.type('total = rou');
  const suggestions = page.locator('.suggest-widget.visible');
  const round = suggestions.locator('.monaco-list-row', { hasText: 'round' }).first();
  await expect(round).toBeVisible();
  await expect(suggestions).toContainText('round(x, digits? = 0) → number');
  await round.click();

  // Signature help opens on the inserted `(` and follows the argument being typed.
  const hints = page.locator('.parameter-hints-widget.visible');
  await expect(hints).toContainText('round(x, digits? = 0) → number');
  await expect(hints.locator('.parameter.active')).toHaveText('x');
  await page.keyboard.type('pri');
  // The bot's own variables complete too: `price` is set by this block's formula.
  await expect(suggestions.locator('.monaco-list-row', { hasText: 'price' }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.type(', ');
  await expect(hints.locator('.parameter.active')).toHaveText('digits');
  await page.keyboard.type('2)');
  await page.keyboard.press('Escape');
  await expect.poll(() => text(formula)).toContain('total = round(price, 2)');
  await saved(page);

  // Variables from elsewhere in the bot: a data-collection arrow's client.email, with its source.
  await page.keyboard.press('Enter');
  await page.keyboard.type('mail = client.em');
  const email = suggestions.locator('.monaco-list-row', { hasText: 'client.email' }).first();
  await expect(email).toBeVisible();
  await expect(suggestions).toContainText('collected by arrow #4');
  await page.keyboard.press('Enter');
  await expect.poll(() => text(formula)).toContain('mail = client.email');
  await saved(page);

  // Hover docs of a built-in.
  await formula.locator('.view-line', { hasText: 'total' }).getByText('round', { exact: true }).hover();
  await expect(page.locator('.monaco-hover').filter({ hasText: 'Rounds' })).toBeVisible();

  // A broken line: marked in the editor, its error shown at the field, and not saved.
  await focusEnd(page, formula);
  await page.keyboard.press('Enter');
  await page.keyboard.type('oops = lenn(price)');
  await expect(formula.locator('.squiggly-error')).toBeVisible();
  await expect(panel.getByRole('alert').filter({ hasText: 'unknown function lenn()' })).toHaveText(
    'line 5, column 8: unknown function lenn()',
  );
  await expect(panel.getByText('this change is not saved until then')).toBeVisible();
  await formula.locator('.view-line', { hasText: 'oops' }).getByText('lenn', { exact: true }).hover();
  await expect(page.locator('.monaco-hover').filter({ hasText: 'unknown function lenn()' })).toBeVisible();
  // The toolbar is honest about the held-back edit; the last valid text was saved on the way.
  await expect(page.getByTestId('save-state')).toContainText('Not saved: 1 field has an error');
  await page.waitForLoadState('networkidle');

  // Reloaded, the bot has the last valid text (`oops = lenn`, as typed on the way), not the broken one.
  await page.reload();
  await page.getByTestId('block-2').click();
  await expect(formula.locator('.monaco-editor')).toBeVisible();
  await expect.poll(() => text(formula)).toContain('mail = client.email');
  expect(await text(formula)).not.toContain('lenn(');
});

test("an arrow's comparison expression uses the same editor: one expression, marked when broken", async ({
  page,
}) => {
  await signUp(page, `expression-${Date.now()}@example.com`);
  await saved(page);
  await page.getByTestId('arrow-1').click();
  const panel = page.getByRole('complementary', { name: 'Arrow editor' });
  const expression = panel.getByTestId('formula-editor');
  await expect(expression.locator('.monaco-editor')).toBeVisible();
  await expect(panel.getByLabel('Comparison expression')).toHaveClass(/inputarea/);
  await focusEnd(page, expression);
  await page.keyboard.type('len(ques');
  await expect(
    page.locator('.suggest-widget.visible .monaco-list-row', { hasText: 'question' }).first(),
  ).toBeVisible();
  await expect(page.locator('.suggest-widget.visible')).toContainText("the client's last message");
  await page.keyboard.press('Enter');
  await page.keyboard.type(') >');
  await expect(expression.locator('.squiggly-error')).toBeVisible();
  await expect(panel.getByRole('alert').first()).toBeVisible();
  await page.keyboard.type(' 3');
  await expect(expression.locator('.squiggly-error')).toHaveCount(0);
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await saved(page);
  await page.reload();
  await page.getByTestId('arrow-1').click();
  await expect.poll(() => text(expression)).toBe('len(question) > 3');
});
