import { BOT_SCHEMA_FORMAT, type BotSchemaInput } from './bot-schema';

/**
 * The small shop bot every new user's first project starts with, and the template the empty
 * canvas offers: several block kinds, a formula, a timer, buttons and a data-collection arrow,
 * and a "did not understand" answer wherever the client chooses among buttons.
 */
export const demoBotSchema: BotSchemaInput = {
  format: BOT_SCHEMA_FORMAT,
  blocks: [
    {
      id: 1,
      kind: 'start',
      name: 'Welcome',
      position: { x: 0, y: 0 },
      trigger: { alternatives: '', match: 'exact' },
      // A client without a name is greeted "Hi!", not "Hi !".
      formula: "greeting = if(name, concat('Hi ', name, '!'), 'Hi!')",
      text: '#{greeting} I am the Blockbot demo. What would you like to do?',
    },
    {
      id: 2,
      kind: 'state',
      name: 'Prices',
      position: { x: 380, y: -120 },
      formula: 'base = 100\nprice = round(base * 1.2, 2)',
      text: 'The plan costs #{price} a month, tax included. Shall I place an order?',
    },
    {
      id: 3,
      kind: 'state',
      name: 'Ask for e-mail',
      position: { x: 760, y: -120 },
      text: 'Great! Which e-mail should we send the invoice to?',
    },
    {
      id: 4,
      kind: 'close_deal',
      name: 'Order placed',
      position: { x: 1140, y: -120 },
      text: 'Thank you! The invoice goes to #{client.email}.',
    },
    {
      id: 5,
      kind: 'not_state',
      name: 'Reminder',
      position: { x: 380, y: 200 },
      text: 'Still there? Tap a button to continue.',
    },
    {
      id: 6,
      kind: 'start',
      name: 'Restart',
      position: { x: 0, y: 320 },
      trigger: { alternatives: '/start;restart', match: 'exact' },
      text: 'Starting over.',
    },
    {
      id: 7,
      kind: 'comment',
      name: 'About this demo',
      position: { x: 760, y: 200 },
      size: { width: 280, height: 140 },
      text: 'A demo bot: open the simulator and say hi. Edit any block, or import your own schema.',
    },
    // Anything else the client writes gets an answer with the buttons again; a grey block leaves
    // the client where it was, so the next reply is checked against the same arrows.
    {
      id: 8,
      kind: 'not_state',
      name: 'Not understood',
      position: { x: 0, y: -240 },
      text: "Sorry, I didn't understand. Please choose one of the options below.",
      buttons: [{ type: 'reply', text: 'Prices' }],
    },
    {
      id: 9,
      kind: 'not_state',
      name: 'Not understood (order)',
      position: { x: 380, y: -320 },
      text: "Sorry, I didn't understand. Please choose one of the options below.",
      buttons: [{ type: 'reply', text: 'Yes' }],
    },
  ],
  arrows: [
    {
      id: 1,
      from: 1,
      to: 2,
      kind: 'condition',
      condition: { alternatives: 'Prices;price;cost', match: 'keywords' },
      showAsButton: true,
    },
    { id: 2, from: 1, to: 5, kind: 'timer', timer: { delay: 1, unit: 'hours' }, cancelIfLeft: true },
    {
      id: 3,
      from: 2,
      to: 3,
      kind: 'condition',
      condition: { alternatives: 'Yes;yes please', match: 'fuzzy' },
      showAsButton: true,
    },
    { id: 4, from: 3, to: 4, kind: 'unconditional', collectInto: 'client.email' },
    // "Starting over." and the welcome together: a continue arrow waits for no reply.
    { id: 5, from: 6, to: 1, kind: 'continue' },
    // Checked after the conditions: any other reply.
    { id: 6, from: 1, to: 8, kind: 'unconditional' },
    { id: 7, from: 2, to: 9, kind: 'unconditional' },
  ],
};
