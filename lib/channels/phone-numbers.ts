import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

interface ReadNumber {
  digits: string;
  international: string | null;
}

/**
 * Numbers read lately: a caller's number comes with every turn of a call and a chat's with
 * every message, and placing one costs libphonenumber-js tens of microseconds. Bounded: emptied
 * when full.
 */
const read = new Map<string, ReadNumber>();
const MAX_READ = 10_000;

/** A number's digits, and its E.164 form without the plus when libphonenumber-js places it. */
function readNumber(phone: string): ReadNumber {
  let number = read.get(phone);
  if (!number) {
    if (read.size >= MAX_READ) read.clear();
    number = placeNumber(phone);
    read.set(phone, number);
  }
  return number;
}

function placeNumber(phone: string): ReadNumber {
  const bare = phone.replace(/@.*$/, '').trim();
  const digits = bare.replace(/\D/g, '');
  if (!digits) return { digits: '', international: null };
  // Numbers come without a country's trunk prefix or with a leading + or 00: all international.
  const international = bare.startsWith('+') ? bare : `+${digits.replace(/^00/, '')}`;
  const parsed = parsePhoneNumberFromString(international);
  return { digits, international: parsed?.isPossible() ? parsed.number.slice(1) : null };
}

/**
 * A phone number as the phone channels store it (the chat-app messenger's and telephony's
 * platform ids): its E.164 form without the plus, as the messenger writes its own ids.
 * `+7 (900) 123-45-67`, `0079001234567`, `79001234567@c.us` (a messenger's suffix) and
 * `79001234567` agree; `+44 (0)20 7946 0958` loses the national prefix written in brackets.
 * A number libphonenumber-js cannot place in any country keeps its digits, so nothing a client
 * sent is lost.
 */
export function phoneDigits(phone: string): string {
  const { digits, international } = readNumber(phone);
  return international ?? digits;
}

/**
 * The number in E.164 without the plus when it is one a messenger or a call can reach (a
 * possible number of a country, written with its country code), else null: `8 900 123-45-67`
 * (a national form) is not.
 */
export const reachableNumber = (phone: string): string | null => readNumber(phone).international;
