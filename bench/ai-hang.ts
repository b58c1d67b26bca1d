/**
 * Part of `npm run bench -- knowledge` (issue 35's event model): another project's
 * get_variables while 50 clients of an AI project wait on a provider that never answers. Project
 * B's get_variables is timed alone, then with 50 AI calls hanging (each event holds its client's
 * lease, no connection and no transaction). One process serves both over real HTTP, as
 * `npm start` does; on PGlite, and on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL
 * names a server. Prints figures; never fails on time.
 */
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { saveProvider } from '../server/ai/ai-settings';
import { startFakeOpenAi } from '../server/ai/testing/fake-openai';
import { createApiKey } from '../server/projects/api-keys';
import { createProject } from '../server/projects/project-service';
import { setSecret } from '../server/secrets/secret-service';
import { waitFor } from '../server/testing/wait-for';
import { saveAndPublish } from '../server/versions/bot-versions';
import { figuresRow, onAppDatabase, quietProject, timeGetVariables } from './get-variables-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CALLERS = 4;
const HANGING = 50;

async function measure(label: string) {
  const { getDb } = await import('../server/db');
  const { startApiServer } = await import('../server/public-api/testing/api-server');
  const db = await getDb();
  const fake = await startFakeOpenAi();
  const api = await startApiServer();
  try {
    const { getVariables } = await quietProject(db, api.url);

    const ai = await createProject(db, { name: 'A: AI', plan: 'ai' });
    await setSecret(db, ai.id, 'OPENAI_KEY', fake.apiKey);
    await saveProvider(db, ai.id, null, {
      name: 'fake',
      baseUrl: fake.url,
      chatModel: 'gpt-4o-mini',
      apiKeySecret: 'OPENAI_KEY',
      timeoutSeconds: 100,
    });
    await saveAndPublish(db, ai.id, {
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        { id: 1, kind: 'start', text: 'hi', trigger: { alternatives: '' } },
        { id: 2, kind: 'state', text: '', ai: { prompt: 'Answer: #{question}' } },
      ],
      arrows: [{ id: 1, from: 1, to: 2, kind: 'continue' }],
    });
    const aiKey = (await createApiKey(db, ai.id, { name: 'bench' })).key;
    const waiting = await Promise.all(
      Array.from({ length: HANGING }, (_, i) =>
        db.client.create({ data: { projectId: ai.id, platformId: `a${i}`, clientType: 99, groupId: 'sim' } }),
      ),
    );

    await timeGetVariables(getVariables, CALLERS, SECONDS); // warm-up, unreported
    const alone = await timeGetVariables(getVariables, CALLERS, SECONDS);

    fake.next(...Array.from({ length: HANGING }, () => ({ hang: true as const })));
    const calls = waiting.map((c) =>
      fetch(`${api.url}/api/${aiKey}/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: c.id, message: 'hello' }),
      })
        .then((r) => r.arrayBuffer())
        .catch(() => {}),
    );
    await waitFor(async () => fake.open() >= HANGING, `${HANGING} AI calls hanging`, 60_000);
    const beside = await timeGetVariables(getVariables, CALLERS, SECONDS);
    const stillHanging = fake.open();
    await fake.close();
    await Promise.all(calls);

    figuresRow(label, "B's get_variables alone", alone);
    figuresRow(label, `B's get_variables while ${HANGING} AI calls of A hang`, beside);
    console.log(
      `${label}: p99 ${(beside.p99 / alone.p99).toFixed(2)}× alone; AI calls still hanging at the end: ${stillHanging}`,
    );
  } finally {
    await api.close();
    await fake.close().catch(() => {});
  }
}

export async function runAiHang(): Promise<void> {
  console.log(
    `\nAnother project's get_variables (${CALLERS} callers, ${SECONDS} s) while ${HANGING} AI calls hang:`,
  );
  await onAppDatabase(measure);
}
