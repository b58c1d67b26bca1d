import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { simulatorClientRef } from '@/server/channels/simulator/simulator-service';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { handleEvent } from '@/server/engine/handle-event';
import { createProject } from '@/server/projects/project-service';
import { type RouteServer, serveRoutes } from '@/server/testing/route-server';
import { signUpForTest } from '@/server/testing/sign-up';
import { signedInCaller } from '@/server/trpc/testing/signed-in';
import { saveAndPublish } from '@/server/versions/bot-versions';

/**
 * The Submissions page's reads and its CSV download: a red or yellow block's submissions with
 * their variables as columns, a date range read in the project's time zone, paging, and the
 * download over real HTTP with its session and membership checks.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-submissions-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let server: RouteServer;
let projectId: number;
let ownerCookie: string;
let strangerCookie: string;

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  const { GET } = await import('@/app/api/projects/[projectId]/submissions/export/route');
  server = await serveRoutes([
    { method: 'GET', pattern: /^\/api\/projects\/(?<projectId>[^/]+)\/submissions\/export$/, handler: GET },
  ]);
  const owner = await signUpForTest(db, 'owner@example.com');
  ownerCookie = owner.cookie;
  strangerCookie = (await signUpForTest(db, 'stranger@example.com')).cookie;
  projectId = (
    await createProject(db, {
      name: 'shop',
      plan: 'business',
      timeZone: 'Europe/Berlin',
      owner: { email: 'owner@example.com', userId: owner.userId },
    })
  ).id;
  // Start asks nothing: the formula fills the deal, the arrow goes on to the red block.
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Order placed',
        formula: "size = question\ncomment = '=1+1'\nphone = '+7 900 123-45-67'",
        trigger: { alternatives: '' },
      },
      { id: 2, kind: 'close_deal', name: 'Order', text: 'Thanks' },
      { id: 3, kind: 'data_transfer', name: 'Lead', text: 'Noted' },
    ],
    arrows: [{ id: 1, from: 1, to: 2, kind: 'unconditional' }],
  });
});
afterAll(async () => {
  server?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const order = async (platformId: string, text: string) =>
  handleEvent(
    await getEngineDeps(),
    projectId,
    { ref: simulatorClientRef(platformId, platformId) },
    { type: 'message', text },
  );

/** A submission stored at a given instant (the engine stamps now; ranges need other days). */
async function submissionAt(iso: string, variables: Record<string, string>) {
  const client = await db.client.findFirstOrThrow({ where: { projectId } });
  return db.submission.create({
    data: { projectId, clientId: client.id, blockId: 2, variables, createdAt: new Date(iso) },
  });
}

describe('submissions', () => {
  it("lists the red and yellow blocks with their counts, and a block's submissions with their variables", async () => {
    // The first message enters the start block (its formula keeps it), the next follows the arrow.
    for (const [client, size] of [
      ['ann', 'XL'],
      ['bob', 'M'],
    ]) {
      await order(client, size);
      await order(client, 'confirm');
    }
    const caller = await signedInCaller(db, 'owner@example.com');
    const blocks = await caller.submissions.blocks({ projectId });
    expect(blocks.map((b) => [b.id, b.name, b.kind, b.count])).toEqual([
      [2, 'Order', 'close_deal', 2],
      [3, 'Lead', 'data_transfer', 0],
    ]);
    const page = await caller.submissions.page({ projectId, blockId: 2 });
    expect(page.total).toBe(2);
    expect(page.columns).toEqual(['comment', 'phone', 'size']);
    expect(page.rows.map((r) => [r.client.displayName, r.variables.size, r.kept])).toEqual([
      ['bob', 'M', false],
      ['ann', 'XL', false],
    ]);
    expect(page.rows[0].client.messenger).toBeTruthy();
    expect(page.rows[0].dealId).toBeGreaterThan(0);
  });

  it('reads a date range in the project time zone, both days included, and pages newest first', async () => {
    // 23:30 UTC on 31 March is already 1 April in Berlin.
    await submissionAt('2026-03-31T23:30:00Z', { size: 'S', colour: 'red' });
    await submissionAt('2026-04-02T21:59:00Z', { size: 'L' });
    await submissionAt('2026-04-02T22:00:00Z', { size: 'XXL' }); // 3 April, 00:00 in Berlin
    const caller = await signedInCaller(db, 'owner@example.com');
    const april = await caller.submissions.page({
      projectId,
      blockId: 2,
      from: '2026-04-01',
      to: '2026-04-02',
    });
    expect(april.rows.map((r) => r.variables.size)).toEqual(['L', 'S']);
    expect(april.columns).toEqual(['colour', 'size']);
    const first = await caller.submissions.page({ projectId, blockId: 2, limit: 2 });
    const second = await caller.submissions.page({
      projectId,
      blockId: 2,
      limit: 2,
      cursor: first.nextCursor,
    });
    const third = await caller.submissions.page({
      projectId,
      blockId: 2,
      limit: 2,
      cursor: second.nextCursor,
    });
    expect([...first.rows, ...second.rows, ...third.rows].map((r) => r.variables.size)).toEqual([
      'XXL',
      'L',
      'S',
      'M',
      'XL',
    ]);
    expect(third.nextCursor).toBeUndefined();
  });

  it('refuses a reversed range, a date that is not one and a block that submits nothing, naming the field', async () => {
    const caller = await signedInCaller(db, 'owner@example.com');
    await expect(
      caller.submissions.page({ projectId, blockId: 2, from: '2026-04-02', to: '2026-04-01' }),
    ).rejects.toThrow(/end date is before the start date/);
    await expect(caller.submissions.page({ projectId, blockId: 2, from: '2026-02-30' })).rejects.toThrow(
      /not a date of the calendar/,
    );
    await expect(caller.submissions.page({ projectId, blockId: 1 })).rejects.toThrow(
      /Block 1 is not a red or yellow block/,
    );
  });

  it("keeps a deleted block's submissions reachable by its id", async () => {
    const other = (await createProject(db, { name: 'deleted block', plan: 'business' })).id;
    const client = await db.client.create({ data: { projectId: other, platformId: 'z', clientType: 99 } });
    await db.submission.create({
      data: { projectId: other, clientId: client.id, blockId: 40, variables: { a: '1' } },
    });
    const owner = await db.user.findUniqueOrThrow({ where: { email: 'owner@example.com' } });
    await db.projectMember.create({
      data: { projectId: other, userId: owner.id, email: 'owner@example.com', role: 'admin' },
    });
    const caller = await signedInCaller(db, 'owner@example.com');
    expect(await caller.submissions.blocks({ projectId: other })).toEqual([
      { id: 40, name: '', kind: null, deleted: true, count: 1 },
    ]);
    expect((await caller.submissions.page({ projectId: other, blockId: 40 })).rows).toHaveLength(1);
  });

  it("never shows another project's submissions", async () => {
    const stranger = await signedInCaller(db, 'stranger@example.com');
    await expect(stranger.submissions.page({ projectId, blockId: 2 })).rejects.toThrow(/not a member/);
  });
});

describe('the CSV download', () => {
  const url = (query: string) => `${server.url}/api/projects/${projectId}/submissions/export?${query}`;

  it('downloads a range with the variables as columns, formulas neutralised, dates in the project zone', async () => {
    const response = await fetch(url('blockId=2&from=2026-04-01&to=2026-04-02'), {
      headers: { cookie: ownerCookie },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toContain(
      'submissions-block-2-from-2026-04-01-to-2026-04-02.csv',
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8's byte order mark
    const rows = Papa.parse<string[]>(new TextDecoder().decode(bytes), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual([
      'submission_id',
      'date',
      'time_zone',
      'client_id',
      'client_name',
      'messenger',
      'deal_id',
      'deal',
      'colour',
      'size',
    ]);
    expect(rows.slice(1).map((r) => [r[1], r[2], r[8], r[9]])).toEqual([
      ['2026-04-01 01:30:00', 'Europe/Berlin', 'red', 'S'],
      ['2026-04-02 23:59:00', 'Europe/Berlin', '', 'L'],
    ]);
  });

  it('quotes a value a spreadsheet would run as a formula, not a phone number', async () => {
    const text = await (await fetch(url('blockId=2'), { headers: { cookie: ownerCookie } })).text();
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    const comment = rows[0].indexOf('comment');
    expect(
      rows
        .slice(1)
        .map((r) => r[comment])
        .filter(Boolean),
    ).toEqual(["'=1+1", "'=1+1"]);
    const phone = rows[0].indexOf('phone');
    expect(rows[1][phone]).toBe('+7 900 123-45-67');
  });

  it('streams a large export in batches, every row once', async () => {
    const big = (
      await createProject(db, {
        name: 'big',
        plan: 'business',
        owner: {
          email: 'owner@example.com',
          userId: (await db.user.findUniqueOrThrow({ where: { email: 'owner@example.com' } })).id,
        },
      })
    ).id;
    const client = await db.client.create({ data: { projectId: big, platformId: 'z', clientType: 99 } });
    await db.submission.createMany({
      data: Array.from({ length: 2_345 }, (_, i) => ({
        projectId: big,
        clientId: client.id,
        blockId: 7,
        variables: { n: String(i) },
      })),
    });
    const response = await fetch(`${server.url}/api/projects/${big}/submissions/export?blockId=7`, {
      headers: { cookie: ownerCookie },
    });
    const rows = Papa.parse<string[]>(await response.text(), { skipEmptyLines: true }).data;
    expect(rows).toHaveLength(2_346);
    expect(rows.slice(1).map((r) => Number(r[8]))).toEqual(Array.from({ length: 2_345 }, (_, i) => i));
  });

  it('refuses without a session, to a stranger, and bad queries with the field named', async () => {
    expect((await fetch(url('blockId=2'))).status).toBe(401);
    expect((await fetch(url('blockId=2'), { headers: { cookie: strangerCookie } })).status).toBe(404);
    const reversed = await fetch(url('blockId=2&from=2026-04-02&to=2026-04-01'), {
      headers: { cookie: ownerCookie },
    });
    expect(reversed.status).toBe(400);
    expect((await reversed.json()).error).toMatch(/^to: The end date is before the start date/);
    const noBlock = await fetch(url('from=2026-04-02'), { headers: { cookie: ownerCookie } });
    expect(noBlock.status).toBe(400);
    expect((await noBlock.json()).error).toMatch(/^blockId:/);
    const startBlock = await fetch(url('blockId=1'), { headers: { cookie: ownerCookie } });
    expect(startBlock.status).toBe(404);
  });
});
