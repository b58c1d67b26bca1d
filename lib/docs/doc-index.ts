import { CHANNEL_DESCRIPTORS, type ChannelDescriptor } from '@/lib/channels/descriptors';

/**
 * The documentation's table of contents: the user guide first, by what a reader wants to do,
 * and the developers' internals apart at the end. Every Markdown file of docs/ is in exactly one
 * section (server/docs/doc-index.test.ts checks it), so a new page is never left out.
 */
export interface DocEntry {
  /** The path under docs/ without `.md`, or an absolute app path (`/docs/api`). */
  doc: string;
  /** Its short name in the docs' navigation. */
  label: string;
  /** One line on what the reader finds there. */
  about: string;
}

export interface DocSection {
  title: string;
  entries: readonly DocEntry[];
  /** Internals: shown apart from the user guide. */
  developers?: true;
}

export const DOC_SECTIONS: readonly DocSection[] = [
  {
    title: 'Start here',
    entries: [
      {
        doc: 'getting-started',
        label: 'Getting started',
        about: 'From a new account to a bot that answers real clients.',
      },
    ],
  },
  {
    title: 'Build bots',
    entries: [
      {
        doc: 'builder',
        label: 'Builder',
        about: 'The canvas, blocks and arrows, buttons, the Problems panel and the simulator.',
      },
      { doc: 'formula', label: 'Formulas', about: 'The formula language and every built-in function.' },
      {
        doc: 'versions',
        label: 'Versions',
        about: 'Draft and published: publishing, the history, rollback, discarding the draft.',
      },
      {
        doc: 'conversation-tests',
        label: 'Conversation tests',
        about:
          'Record what the bot must say, run the tests on every change, and publish only when they pass.',
      },
      {
        doc: 'analytics',
        label: 'Analytics',
        about: 'Clients per block, arrows followed, where clients stop, and funnels.',
      },
      {
        doc: 'ai',
        label: 'AI',
        about: 'Providers, the AI step in blocks, the assistant, the knowledge base, costs and limits.',
      },
      {
        doc: 'secrets',
        label: 'Secrets',
        about: 'API keys and tokens for requests and AI providers: write-only, encrypted, masked.',
      },
      {
        doc: 'knowledge-base',
        label: 'Knowledge base',
        about: 'Documents the AI assistant answers from: formats, chunks, search and limits.',
      },
      {
        doc: 'bot-schema',
        label: 'Schema format',
        about: 'The JSON format of a bot, for import and export.',
      },
    ],
  },
  {
    title: 'Talk to clients',
    entries: [
      // Each channel kind's setup page, from its descriptor (a new kind's page is listed with it).
      ...(CHANNEL_DESCRIPTORS as readonly ChannelDescriptor[]).flatMap((d) =>
        d.doc ? [{ doc: d.doc.page, label: d.doc.label, about: d.doc.about }] : [],
      ),
      {
        doc: 'inbox',
        label: 'Conversations',
        about: 'Operators answering clients, and taking a conversation over from the bot.',
      },
      {
        doc: 'crm',
        label: 'Deals and the CRM',
        about: 'Funnels and stages, the deals board, and what moving a deal does.',
      },
      {
        doc: 'clients',
        label: 'Clients',
        about: 'Everyone who wrote to the bot: profiles, variables, history.',
      },
      {
        doc: 'lists',
        label: 'Lists',
        about: 'Groups of clients: create them, fill them from the table or a CSV, export them.',
      },
      {
        doc: 'broadcasts',
        label: 'Broadcasts',
        about: 'One message or block to many clients: recipients, schedule, progress, pause and cancel.',
      },
      { doc: 'team', label: 'Team', about: 'Owners, admins and operators; invites.' },
    ],
  },
  {
    title: 'Integrate',
    entries: [
      {
        doc: '/docs/api',
        label: 'API reference',
        about: 'The public HTTP API: every action, its parameters and an example.',
      },
      {
        doc: 'webhooks',
        label: 'Webhooks',
        about: "The project's webhook: events, delivery rules, the webhook log, verifying signatures.",
      },
      {
        doc: 'migrating',
        label: 'Migrating',
        about: 'Moving bots and integrations from the commercial platform.',
      },
      {
        doc: 'operations',
        label: 'Operations',
        about: 'Running an instance: health checks, metrics, logs, backups, moving projects, sign-up.',
      },
      {
        doc: 'spec/platform-interface',
        label: 'Interface contract',
        about: 'The interface contract: endpoints, in-flow functions, webhook.',
      },
    ],
  },
  {
    title: 'For developers of Blockbot',
    developers: true,
    entries: [
      {
        doc: 'architecture',
        label: 'Architecture',
        about: 'Where the code lives, how a message flows, and recipes for extending it.',
      },
      {
        doc: 'spec/bot-semantics',
        label: 'Bot semantics',
        about: 'How bots run: the rules the engine implements.',
      },
    ],
  },
];

/** A doc's address in the app. */
export const docHref = (doc: string) => (doc.startsWith('/') ? doc : `/docs/${doc}`);

/** A Markdown document's title: its first `# ` heading. */
export const docTitle = (markdown: string) => /^# (.+)$/m.exec(markdown)?.[1];
