import { expect, test } from '@playwright/test';
import { type FakeOpenAi, startFakeOpenAi } from '../server/ai/testing/fake-openai';
import { importBot, saved, signUp } from './helpers';

// A fake OpenAI-compatible server on 127.0.0.1 (playwright.config.ts lets the app reach 127.0.0.1).
const fakePort = Number(process.env.E2E_PORT ?? 3100) + 4;
let fake: FakeOpenAi;

test.beforeAll(async () => {
  fake = await startFakeOpenAi({ port: fakePort });
});
test.afterAll(() => fake?.close());

test('a secret, a provider tested from Settings, an assistant, and an AI step answering in the simulator', async ({
  page,
}) => {
  await signUp(page, `ai-${Date.now()}@example.com`);
  const projectUrl = page.url();

  // The AI plan, and the provider's key as a secret: shown once, never again.
  await page.goto(`${projectUrl}/settings`);
  await page.getByLabel('Plan').selectOption('ai');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  const secrets = page.getByRole('form', { name: 'Add a secret' });
  await secrets.getByLabel('Name', { exact: true }).fill('OPENAI_KEY');
  await secrets.getByLabel('Value').fill(fake.apiKey);
  await secrets.getByRole('button', { name: 'Add secret' }).click();
  await expect(page.getByText('Secret OPENAI_KEY saved.')).toBeVisible();
  await expect(page.getByText('#{secret.OPENAI_KEY}')).toBeVisible();
  await expect(page.getByText(fake.apiKey)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/settings-secrets.png', fullPage: true });

  // Settings, AI: a provider with a wrong URL first, named; then the fake, tested.
  await page.getByRole('link', { name: 'AI', exact: true }).click();
  await expect(page.getByText('No provider yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Add provider' }).click();
  const provider = page.getByRole('form', { name: 'AI provider' });
  await provider.getByLabel('Name', { exact: true }).fill('fake');
  await provider.getByLabel('Base URL').fill('not a url');
  await provider.getByRole('button', { name: 'Save provider' }).click();
  await expect(provider.getByRole('alert')).toHaveText(
    'not a URL: give the API root, e.g. https://api.openai.com/v1',
  );
  await provider.getByLabel('Base URL').fill(fake.url);
  await provider.getByLabel('API key secret (optional)').fill('OPENAI_KEY');
  await provider.getByRole('button', { name: 'Save provider' }).click();
  await expect(page.getByText(`gpt-4o-mini at ${fake.url}`)).toBeVisible();
  await page.getByRole('button', { name: 'Test' }).click();
  await expect(page.getByText('Chat: ok: gpt-4o-mini answered "ok"')).toBeVisible();
  await expect(
    page.getByText(/Embeddings: ok: text-embedding-3-small gave a vector of \d+ dimensions/),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Add assistant' }).click();
  const assistant = page.getByRole('form', { name: 'Assistant' });
  await assistant.getByLabel('Name', { exact: true }).fill('Shop');
  await assistant.getByLabel('Role').fill('You are the shop’s assistant.');
  await assistant.getByRole('button', { name: 'Save assistant' }).click();
  await expect(page.getByText('priority 0, always')).toBeVisible();
  await page.screenshot({ path: 'test-results/settings-ai.png', fullPage: true });

  // The knowledge base: a document indexed through the provider, found by a question.
  await page.getByRole('link', { name: 'Knowledge' }).click();
  await page.getByLabel('Title').fill('Delivery and returns');
  await page
    .getByLabel('Text', { exact: true })
    .fill(
      '# Delivery\nWe deliver within two days, anywhere in town.\n\n# Returns\nReturns are free for 30 days.',
    );
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('Delivery and returns').first()).toBeVisible();
  // Indexing is a job: the list refreshes itself until the document is ready.
  await expect(page.getByText('ready', { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Question').fill('how fast is delivery in town');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'score' }).first()).toContainText('two days');
  await page.screenshot({ path: 'test-results/knowledge.png', fullPage: true });

  // A bot whose start block asks the model; the simulator shows the answer, the log its cost and citations.
  await page.goto(projectUrl);
  await importBot(page, 'ai-bot.json', {
    format: 'blockbot/schema@1',
    blocks: [
      {
        id: 1,
        kind: 'start',
        name: 'Ask the AI',
        text: 'Sorry, no answer right now.',
        trigger: { alternatives: '' },
        ai: { prompt: 'Answer the client: #{question}', system: 'You are brief.', useKnowledge: true },
      },
    ],
    arrows: [],
  });
  await saved(page);
  await page.getByTestId('block-1').click();
  const editor = page.getByRole('complementary', { name: 'Block editor' });
  await expect(editor.getByLabel('Prompt', { exact: true })).toHaveValue('Answer the client: #{question}');
  await editor.getByLabel('Prompt', { exact: true }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/block-editor-ai.png' });

  fake.next({ text: 'We deliver within two days.' });
  await page.getByLabel('Message to the bot').fill('how fast is delivery?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('sim-out').last()).toContainText('We deliver within two days.');
  await page.getByRole('tab', { name: 'Log' }).click();
  await expect(page.getByTestId('log')).toContainText('AI step in block #1 answered: fake, gpt-4o-mini');
  await expect(page.getByTestId('log')).toContainText('Knowledge base: ');
  await page.screenshot({ path: 'test-results/simulator-ai-log.png' });
  const sent = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
  expect(JSON.stringify(sent?.body)).toContain('Answer the client: how fast is delivery?');
  // The chunk found went to the model as a numbered excerpt.
  expect(JSON.stringify(sent?.body)).toContain('We deliver within two days');
  expect(JSON.stringify(sent?.body)).not.toContain(fake.apiKey);
});
