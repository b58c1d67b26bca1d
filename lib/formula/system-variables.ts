import type { KnownVariable } from './known-variables';

/** bot-semantics §3: the read-only system variables every bot can read. */
export const SYSTEM_VARIABLES: readonly KnownVariable[] = [
  ['client_id', "the client's id in Blockbot"],
  ['platform_id', "the client's id in its messenger"],
  ['client_type', 'the messenger type (1 tg, 5 widget, 6 chat-app, 10 social, 13 telephony, 99 simulator)'],
  ['name', "the client's name"],
  ['question', "the client's last message"],
  ['message_id', 'the id of the current block'],
  ['custom_answer', 'the reply of the last block request'],
  ['current_date', "today's date, dd.mm.yyyy, in the project's time zone"],
  ['current_time', 'the time now, HH:MM'],
  ['timestamp', 'the Unix time now, in seconds'],
  ['weekday', 'the day of the week, 1 Monday … 7 Sunday'],
  ['next_day', "tomorrow's date, dd.mm.yyyy"],
  ['order_id', "the id of the client's current deal"],
  ['attachment_url', 'the address of the file the client sent last'],
  ['callback_query_id', 'the id of the tg button press being answered'],
  ['message_from_outside', '0 client, 1 API, 2 CRM, 3 callback, 5 telephony'],
  ['group', 'the id of the connected messenger bot or channel'],
  ['messenger', "the client's messenger"],
  ['date_of_creation', 'when the client first wrote'],
  ['none', 'an empty value'],
].map(([name, doc]) => ({ name, detail: `system variable: ${doc}` }));

const SYSTEM_NAMES = new Set(SYSTEM_VARIABLES.map((v) => v.name));

/** Whether a name is a system variable, which the host computes for the moment it is read. */
export const isSystemVariable = (name: string): boolean => SYSTEM_NAMES.has(name);
