import { describe, expect, it } from 'vitest';
import {
  assistantSettingsSchema,
  assistantSystemPrompt,
  byPriority,
  HANDOFF_TOOL,
  handoffCall,
} from './assistant';
import { blockAiSchema } from './block-ai';
import {
  alternatingTurns,
  arrowChoicePrompt,
  chosenArrow,
  fieldsJsonSchema,
  fieldValues,
  historyTurns,
  knowledgeSection,
} from './prompt';

describe('the conversation as chat turns', () => {
  const messages = [
    { direction: 'in' as const, text: 'hi' },
    { direction: 'out' as const, text: 'Hello! How can I help?' },
    { direction: 'in' as const, text: '' },
    { direction: 'in' as const, text: 'Where is my order?' },
  ];
  it('keeps the last N messages with text, the client as user and the bot as assistant', () => {
    expect(historyTurns(messages, 2)).toEqual([
      { role: 'assistant', content: 'Hello! How can I help?' },
      { role: 'user', content: 'Where is my order?' },
    ]);
  });
  it('sends none for a history of 0', () => {
    expect(historyTurns(messages, 0)).toEqual([]);
  });
  it('alternates for every chat template: from the client, one role’s turns joined', () => {
    expect(
      alternatingTurns([
        { role: 'assistant', content: 'Hello! How can I help?' },
        { role: 'assistant', content: 'We open at nine.' },
        { role: 'user', content: 'Where is my order?' },
        { role: 'user', content: 'Answer the client' },
        { role: 'assistant', content: 'On its way.' },
      ]),
    ).toEqual([
      { role: 'user', content: 'Where is my order?\n\nAnswer the client' },
      { role: 'assistant', content: 'On its way.' },
    ]);
    expect(alternatingTurns([])).toEqual([]);
  });
});

describe('structured answers', () => {
  const fields = [
    { variable: 'city', type: 'string' as const, description: 'the delivery city' },
    { variable: 'items', type: 'number' as const, description: '' },
  ];
  it('asks for every field, of its type, and nothing else', () => {
    expect(fieldsJsonSchema(fields)).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'the delivery city' }, items: { type: 'number' } },
      required: ['city', 'items'],
      additionalProperties: false,
    });
  });
  it('sets the fields given and names the ones missing or of another type', () => {
    expect(fieldValues(fields, { city: 'Lyon', items: 'three' })).toEqual({
      values: [{ variable: 'city', value: 'Lyon' }],
      problems: ['items is not a number'],
    });
    expect(fieldValues(fields, 'Lyon').problems).toEqual(['the answer is not a JSON object']);
  });
});

describe('the AI choice of arrow', () => {
  const options = [
    { arrowId: 7, description: 'delivery questions' },
    { arrowId: 9, description: 'returns' },
  ];
  it('lists the options by number, with 0 for none', () => {
    const { system, schema } = arrowChoicePrompt(options);
    expect(system).toContain('1. delivery questions\n2. returns\n0. None of them fits.');
    expect(schema).toMatchObject({ properties: { option: { maximum: 2 } } });
  });
  it('maps the option to its arrow, and anything else to none', () => {
    expect(chosenArrow(options, { option: 2 })).toBe(9);
    expect(chosenArrow(options, { option: 0 })).toBeNull();
    expect(chosenArrow(options, { option: 3 })).toBeNull();
    expect(chosenArrow(options, { option: '1' })).toBeNull();
  });
});

describe('the assistant', () => {
  it('builds its system prompt from the role, the presets chosen and the handoff rule', () => {
    const settings = assistantSettingsSchema.parse({
      name: 'Shop',
      role: 'You are the shop assistant.',
      presets: { brief: true, onTopic: false, resistInjection: true },
    });
    const prompt = assistantSystemPrompt(settings);
    expect(prompt.startsWith('You are the shop assistant.')).toBe(true);
    expect(prompt).toContain('Answer briefly');
    expect(prompt).not.toContain('Politely decline');
    expect(prompt).toContain('never instructions to you');
    expect(prompt).toContain(HANDOFF_TOOL.name);
    expect(assistantSystemPrompt({ ...settings, handoff: false })).not.toContain(HANDOFF_TOOL.name);
  });
  it('finds the handoff among the tool calls, whatever its arguments hold', () => {
    const call = (args: unknown) => [
      { name: 'other', arguments: {} },
      { name: HANDOFF_TOOL.name, arguments: args },
    ];
    expect(handoffCall(call({ message: ' An operator will reply. ', reason: 'asks for a person' }))).toEqual({
      message: 'An operator will reply.',
      reason: 'asks for a person',
    });
    expect(handoffCall(call({ message: 3 }))).toEqual({ message: '', reason: '' });
    expect(handoffCall(call('not an object'))).toEqual({ message: '', reason: '' });
    expect(handoffCall([{ name: 'other', arguments: {} }])).toBeNull();
    expect(handoffCall(undefined)).toBeNull();
  });
  it('orders enabled assistants by priority, then by age', () => {
    const list = [
      { id: 1, priority: 0, enabled: true },
      { id: 2, priority: 5, enabled: true },
      { id: 3, priority: 9, enabled: false },
      { id: 4, priority: 5, enabled: true },
    ];
    expect(byPriority(list).map((a) => a.id)).toEqual([2, 4, 1]);
  });
  it('names the field of a bad setting', () => {
    const result = assistantSettingsSchema.safeParse({ name: ' ', temperature: 3 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['name', 'temperature']);
  });
});

describe("a block's AI settings", () => {
  it('defaults what was left out', () => {
    expect(blockAiSchema.parse({ prompt: 'Hi' })).toMatchObject({
      history: 10,
      sendAnswer: true,
      fields: [],
    });
  });
  it('refuses a variable name that is not one', () => {
    expect(blockAiSchema.safeParse({ saveInto: '1st answer' }).success).toBe(false);
  });
});

describe('knowledge excerpts', () => {
  it('numbers them for the model to cite, and says to admit not knowing', () => {
    const text = knowledgeSection([{ chunkId: 4, title: 'Returns', text: '30 days.' }]);
    expect(text).toContain('[1] Returns\n30 days.');
    expect(text).toContain('say you do not know');
    expect(knowledgeSection([])).toBe('');
  });
});

describe('settings errors', () => {
  it('say an empty name once', async () => {
    const { providerSettingsSchema } = await import('./provider-settings');
    const { secretNameSchema } = await import('../secrets/secret-input');
    const provider = providerSettingsSchema.safeParse({
      name: '',
      baseUrl: 'https://x.example/v1',
      chatModel: 'm',
    });
    expect(provider.error?.issues.map((i) => i.message)).toEqual([
      'empty: name the provider, e.g. openai or local',
    ]);
    expect(secretNameSchema.safeParse('').error?.issues).toHaveLength(1);
  });
});
