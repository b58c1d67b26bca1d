import { seededRandom } from '@/lib/formula/seeded-random';
import { BOT_SCHEMA_FORMAT, type BotSchemaInput } from '@/lib/schema';
import { simulatorClientRef } from '@/server/channels/simulator/simulator-service';
import type { Plan } from '@/server/db/generated/client';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { getSafeHttpConfig, safeFetch } from '@/server/http';
import { saveBotSchema } from '@/server/projects/bot-schema-store';
import { createProject } from '@/server/projects/project-service';
import { publishDraft } from '@/server/versions/bot-versions';
import type { EngineDeps } from '../engine-deps';
import type { EngineEvent } from '../events';
import { handleEvent } from '../handle-event';
import type { ScheduledJobData, Scheduler } from '../scheduler';

/**
 * Drives bots through the real engine and database the way the simulator does, with a clock
 * the test moves and a scheduler that records jobs so the test can fire them.
 */
export class EngineHarness {
  now = new Date('2026-03-02T09:00:00Z');
  readonly jobs = new Map<string, { data: ScheduledJobData; runAt: Date; cancelled: boolean }>();
  private nextJob = 1;
  readonly deps: EngineDeps;

  private constructor(readonly tdb: TestDatabase) {
    const scheduler: Scheduler = {
      schedule: async (data, runAt) => {
        const id = `job-${this.nextJob++}`;
        this.jobs.set(id, { data, runAt, cancelled: false });
        return id;
      },
      cancel: async (jobId) => {
        const job = this.jobs.get(jobId);
        if (job) job.cancelled = true;
      },
    };
    // The local test servers are reached on purpose, through the same safe client.
    const http = { ...getSafeHttpConfig(), allowHosts: ['127.0.0.1'] };
    this.deps = {
      db: tdb.prisma,
      http: (url, init) => safeFetch(url, init, http),
      scheduler,
      now: () => this.now,
      random: seededRandom(42),
    };
  }

  static async create(): Promise<EngineHarness> {
    return new EngineHarness(await createTestDatabase());
  }

  close() {
    return this.tdb.close();
  }

  /** A project with the given bot; returns a driver for one simulator client of it. */
  async bot(schema: Omit<BotSchemaInput, 'format'>, options: { plan?: Plan; timeZone?: string } = {}) {
    const project = await createProject(this.tdb.prisma, {
      name: 'Test bot',
      plan: options.plan ?? 'business',
      timeZone: options.timeZone ?? 'UTC',
    });
    await saveBotSchema(this.tdb.prisma, project.id, { format: BOT_SCHEMA_FORMAT, ...schema });
    return new BotDriver(this, project.id);
  }

  advance(ms: number) {
    this.now = new Date(this.now.getTime() + ms);
  }

  /** Runs the recorded jobs that are due (not cancelled), oldest first. */
  async runDueJobs(): Promise<number> {
    const due = [...this.jobs]
      .filter(([, j]) => !j.cancelled && j.runAt <= this.now)
      .sort((a, b) => +a[1].runAt - +b[1].runAt);
    for (const [id, job] of due) {
      this.jobs.delete(id);
      await handleEvent(
        this.deps,
        job.data.projectId,
        { clientId: job.data.clientId },
        { type: 'scheduled', scheduledSendId: job.data.scheduledSendId },
      );
    }
    return due.length;
  }

  pendingJobs() {
    return [...this.jobs.values()].filter((j) => !j.cancelled);
  }
}

export class BotDriver {
  private counter = 0;
  constructor(
    readonly harness: EngineHarness,
    readonly projectId: number,
    readonly platformId = 'tester',
  ) {}

  client(platformId: string) {
    return new BotDriver(this.harness, this.projectId, platformId);
  }

  get db() {
    return this.harness.tdb.prisma;
  }

  /** Publishes the draft: clients of the messengers talk to it (the simulator's to the draft). */
  publish() {
    return publishDraft(this.db, this.projectId, { userId: null, name: 'test' });
  }

  async event(event: EngineEvent) {
    return handleEvent(
      this.harness.deps,
      this.projectId,
      { ref: simulatorClientRef(this.platformId, `Tester ${this.platformId}`) },
      event,
    );
  }

  /** Sends a message; returns the texts the bot answered with. */
  async say(text: string): Promise<string[]> {
    const result = await this.event({ type: 'message', text });
    return result.messages.map((m) => m.text);
  }

  async clientRow() {
    return this.db.client.findFirstOrThrow({
      where: { projectId: this.projectId, platformId: `user:${this.platformId}` },
    });
  }

  async variables() {
    const client = await this.clientRow();
    const deal = await this.db.deal.findFirst({
      where: { clientId: client.id, closedAt: null },
      orderBy: { id: 'desc' },
    });
    const [dealVars, clientVars] = await Promise.all([
      deal ? this.db.dealVariable.findMany({ where: { dealId: deal.id } }) : [],
      this.db.clientVariable.findMany({ where: { clientId: client.id } }),
    ]);
    return {
      deal: Object.fromEntries(dealVars.map((v) => [v.name, v.value])),
      client: Object.fromEntries(clientVars.map((v) => [v.name, v.value])),
    };
  }

  async log(kind?: string) {
    const client = await this.clientRow();
    const rows = await this.db.engineLogEntry.findMany({
      where: { clientId: client.id, ...(kind ? { kind } : {}) },
      orderBy: { id: 'asc' },
    });
    return rows.map((r) => ({ kind: r.kind, ...(r.data as object) })) as Record<string, unknown>[];
  }

  async transcript() {
    const client = await this.clientRow();
    const rows = await this.db.message.findMany({ where: { clientId: client.id }, orderBy: { id: 'asc' } });
    return rows.map((r) => `${r.direction === 'in' ? '>' : '<'} ${r.text}`);
  }

  nextId() {
    return ++this.counter;
  }
}
