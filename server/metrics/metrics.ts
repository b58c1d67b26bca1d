import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { descriptorOfType } from '@/lib/channels/descriptors';

/**
 * The process's Prometheus metrics (docs/operations.md, "Metrics"): one registry per process,
 * kept on globalThis because Next.js may load this module once per route bundle. Every label
 * has a bounded set of values (channel kinds, outcomes, status codes, API actions, queue names):
 * never a client's data, a project id or a URL.
 */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    messagesReceived: new Counter({
      name: 'blockbot_messages_received_total',
      help: "Clients' messages the engine took, per channel kind and outcome (handled, duplicate, failed).",
      labelNames: ['channel', 'outcome'] as const,
      registers,
    }),
    messagesSent: new Counter({
      name: 'blockbot_messages_sent_total',
      help: "Messages handed to a client's channel, per channel kind and outcome (sent, held, failed).",
      labelNames: ['channel', 'outcome'] as const,
      registers,
    }),
    eventDuration: new Histogram({
      name: 'blockbot_engine_event_duration_seconds',
      help: 'How long the engine took for one event, from the claim to the stored result, per event type.',
      labelNames: ['event'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'blockbot_webhook_deliveries_total',
      help: "Deliveries to projects' webhooks, per outcome (delivered, failed: an error status or no answer).",
      labelNames: ['outcome'] as const,
      registers,
    }),
    webhookLag: new Histogram({
      name: 'blockbot_webhook_delivery_lag_seconds',
      help: "From the event's commit to the receiver's answer, per delivery attempt.",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers,
    }),
    messengerApiResponses: new Counter({
      name: 'blockbot_messenger_api_responses_total',
      help: "Answers of the messengers' APIs, per channel kind and HTTP status ('error' when none came).",
      labelNames: ['channel', 'status'] as const,
      registers,
    }),
    aiCalls: new Counter({
      name: 'blockbot_ai_calls_total',
      help: "Calls to AI providers' models, per outcome (ok, error, limit: the project's daily limit refused it).",
      labelNames: ['outcome'] as const,
      registers,
    }),
    aiTokens: new Counter({
      name: 'blockbot_ai_tokens_total',
      help: 'Tokens AI providers counted, per type (prompt, completion).',
      labelNames: ['type'] as const,
      registers,
    }),
    apiRequests: new Counter({
      name: 'blockbot_api_requests_total',
      help: "Public API requests, per action ('unknown' for a name that is none) and HTTP status.",
      labelNames: ['action', 'status'] as const,
      registers,
    }),
    jobBacklog: new Gauge({
      name: 'blockbot_job_backlog',
      help: "Jobs due and not yet taken, per queue (the database's: every process reports the same).",
      labelNames: ['queue'] as const,
      registers,
    }),
    jobOldestAge: new Gauge({
      name: 'blockbot_job_oldest_age_seconds',
      help: 'How long the oldest due job has waited, per queue (0 when none waits).',
      labelNames: ['queue'] as const,
      registers,
    }),
    outboxBacklog: new Gauge({
      name: 'blockbot_outbox_backlog',
      help: "Side effects of committed events not yet carried out, per kind (the database's).",
      labelNames: ['kind'] as const,
      registers,
    }),
    outboxOldestAge: new Gauge({
      name: 'blockbot_outbox_oldest_age_seconds',
      help: 'How long the oldest side effect still to carry out has waited, per kind.',
      labelNames: ['kind'] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const globalForMetrics = globalThis as unknown as { blockbotMetrics?: Metrics };

export function metrics(): Metrics {
  globalForMetrics.blockbotMetrics ??= createMetrics();
  return globalForMetrics.blockbotMetrics;
}

/** A client type's channel kind, the `channel` label. */
export function channelLabel(clientType: number): string {
  return descriptorOfType(clientType)?.kind ?? 'unknown';
}
