import { zonedParts } from '@/lib/formula/time-zone';

/** bot-semantics §3: the read-only system variables, computed for the moment of the event. */
export interface SystemState {
  clientId: number;
  platformId: string;
  clientType: number;
  groupId: string;
  clientName: string;
  clientCreatedAt: Date;
  question: string;
  currentBlockId: number | null;
  customAnswer: string;
  dealId: number | null;
  attachmentUrl: string;
  callbackQueryId: string;
  messageFromOutside: number;
  messenger: string;
  timeZone: string;
  now: Date;
}

function parts(date: Date, timeZone: string) {
  const p = zonedParts(date, timeZone);
  return { date: `${p.d}.${p.m}.${p.Y}`, time: `${p.H}:${p.M}`, weekday: p.weekday };
}

export function systemVariable(state: SystemState, name: string): string | undefined {
  switch (name) {
    case 'client_id':
      return String(state.clientId);
    case 'platform_id':
      return state.platformId;
    case 'client_type':
      return String(state.clientType);
    case 'name':
      return state.clientName;
    case 'question':
      return state.question;
    case 'message_id':
      return state.currentBlockId === null ? '' : String(state.currentBlockId);
    case 'custom_answer':
      return state.customAnswer;
    case 'current_date':
      return parts(state.now, state.timeZone).date;
    case 'current_time':
      return parts(state.now, state.timeZone).time;
    case 'timestamp':
      return String(Math.floor(state.now.getTime() / 1000));
    case 'weekday':
      // 1 = Monday … 7 = Sunday, in the project's time zone.
      return String(parts(state.now, state.timeZone).weekday);
    case 'next_day':
      return parts(new Date(state.now.getTime() + 86_400_000), state.timeZone).date;
    case 'order_id':
      return state.dealId === null ? '' : String(state.dealId);
    case 'attachment_url':
      return state.attachmentUrl;
    case 'callback_query_id':
      return state.callbackQueryId;
    case 'message_from_outside':
      return String(state.messageFromOutside);
    case 'group':
      return state.groupId;
    case 'messenger':
      return state.messenger;
    case 'date_of_creation':
      return parts(state.clientCreatedAt, state.timeZone).date;
    case 'none':
      return '';
    default:
      return undefined;
  }
}

/** `dd.mm.yyyy hh:mm` in a time zone → the instant. Null when the text is not such a date. */
export function parseLocalDateTime(text: string, timeZone: string): Date | null {
  const m = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+(\d{1,2}):(\d{2}))?\s*$/.exec(text);
  if (!m) return null;
  const [day, month, year, hour, minute] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0'].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // The zone's offset at that moment: format the UTC guess in the zone and correct by the difference.
  const offset = zoneOffsetMs(new Date(asUtc), timeZone);
  const result = new Date(asUtc - offset);
  const check = zoneOffsetMs(result, timeZone);
  return check === offset ? result : new Date(asUtc - check);
}

function zoneOffsetMs(date: Date, timeZone: string): number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const p = Object.fromEntries(f.formatToParts(date).map((x) => [x.type, Number(x.value)]));
  const local = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return local - Math.floor(date.getTime() / 1000) * 1000;
}
