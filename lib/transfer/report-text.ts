import type { RecordKind } from './archive-format';

/** What each record kind is called in a report, in the archive's order. */
const NAMES: Record<RecordKind, [one: string, many: string]> = {
  project: ['project', 'projects'],
  constant: ['constant', 'constants'],
  secret: ['project secret', 'project secrets'],
  funnel: ['CRM funnel', 'CRM funnels'],
  state: ['CRM stage', 'CRM stages'],
  list: ['list', 'lists'],
  draft: ['draft bot', 'draft bots'],
  version: ['version', 'versions'],
  channel: ['channel', 'channels'],
  client: ['client', 'clients'],
  clientVariable: ['client variable', 'client variables'],
  channelState: ['channel state', 'channel states'],
  widgetVisitor: ['widget visitor', 'widget visitors'],
  deal: ['deal', 'deals'],
  dealVariable: ['deal variable', 'deal variables'],
  listMember: ['list member', 'list members'],
  file: ['stored file', 'stored files'],
  message: ['message', 'messages'],
  submission: ['submission', 'submissions'],
  flowCount: ['analytics count', 'analytics counts'],
  aiProvider: ['AI provider', 'AI providers'],
  aiModelParameters: ['learnt model parameter set', 'learnt model parameter sets'],
  aiAssistant: ['AI assistant', 'AI assistants'],
  knowledgeDocument: ['knowledge document', 'knowledge documents'],
  knowledgeChunk: ['knowledge chunk', 'knowledge chunks'],
};

/** `3 clients`, `1 message`; `blocks` and `tests` are not record kinds but are counted too. */
export function countText(kind: string, n: number): string {
  const names = NAMES[kind as RecordKind] ?? [kind.replace(/s$/, ''), kind];
  return `${n} ${n === 1 ? names[0] : names[1]}`;
}

/** One line per counted kind, in the archive's order, kinds counted 0 left out. */
export function countLines(counts: Readonly<Record<string, number>>, indent = '  '): string {
  const order = Object.keys(NAMES);
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => rank(order, a) - rank(order, b))
    .map(([kind, n]) => `${indent}${countText(kind, n)}\n`)
    .join('');
}

const rank = (order: string[], kind: string) => {
  const i = order.indexOf(kind);
  return i < 0 ? order.length : i;
};
