/**
 * Writes docs/formula.md from the built-in catalogue (`npx tsx scripts/gen-formula-docs.ts`);
 * `--check` fails when the file is out of date, so CI keeps the docs true to the code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { catalogue, signature } from '../lib/formula/catalogue';
import { LIMITS } from '../lib/formula/limits';
import { CHARS_PER_STEP } from '../lib/formula/meter';

const out = path.join(process.cwd(), 'docs', 'formula.md');

const intro = `# The formula language

Every block has a formula (the "calculator"): statements that run, top to bottom, when a client
enters the block, before its request and its message. Comparison expressions of arrows and
\`#{...}\` expressions in texts use the same language. This page is generated from the built-in
catalogue (\`lib/formula/catalogue.ts\`) by \`scripts/gen-formula-docs.ts\`.

## Statements

One statement per line (lines join inside brackets):

\`\`\`
price = 100                      /* a deal variable */
client.phone = '+4930123456'     /* a client profile variable */
items[0] = 'tea'                 /* an element of a list */
order['total'] = price * 2       /* a key of a dict */
discount =                       /* nothing after = clears the variable */
message(client_id, 'Thanks!')    /* a bare call */
\`\`\`

Comments are written \`/* ... */\` and may span lines.

## Values

Numbers (\`42\`, \`2.5\`), texts (\`'..'\` or \`".."\` with the escapes \`\\n\`, \`\\t\`, \`\\\\\`, \`\\'\`, \`\\"\`),
\`None\`, \`True\`, \`False\`, lists \`[1, 'a']\` and dicts \`{'key': 'value'}\`.

Variables are stored as text. A text that looks like a number behaves as a number in
arithmetic and comparisons (\`'2' + 3\` is 5, and so is \`'2' + '3'\`); other texts join (\`'a' + 3\`
is \`a3\`). Lists and dicts are stored as JSON and read back as lists and dicts; \`True\` and
\`False\` come back as booleans. A name that was never set reads as \`None\`.

## Numbers as people write them

A text is a number when it is written as one: \`42\`, \`-2.5\`, \`1e3\`, and also with a decimal
comma (\`'2,5'\` is 2.5) or with its thousands apart by spaces (\`'1 500'\` and \`'1 500,25'\`; a
no-break space works too). A comma is always the decimal separator: \`'1,500'\` is 1.5, so write
thousands with spaces. Only one comma followed by digits makes a number: \`'1,2,3'\`, \`'2,'\` and
\`'12 3456'\` stay text. So a client's answer \`2,5\` or \`1 500\` counts in \`question * 2\`.
Numbers are always written back with a dot and no spaces (\`'2,5' * 2\` is 5, \`'2,5' + 1\` is 3.5).

Text times a number is an error that says so (\`cannot use * with the text "ab", which is not a
number; to repeat a text, use repeat(text, times)\`): a client's text in \`question * 2\` never
turns into the text written twice. To repeat a text, use \`repeat('ab', 3)\` (\`ababab\`). A list
times a number still repeats the list: \`[1, 2] * 2\` is \`[1, 2, 1, 2]\`.

Comparing numeric texts is exact: two texts (or a text and a number) are compared as numbers,
and a text with more than 15 significant digits, too long for a number to hold exactly, is
compared digit by digit. Long ids never collide: \`'123456789012345678' == '123456789012345679'\`
is False, while \`'123456789012345678' == '0123456789012345678.0'\` is True. (Arithmetic on such
a text works on the nearest number.)

## Unset and cleared variables

A variable that was never set, or was cleared with \`name =\`, is \`None\`:

- in arithmetic it is 0: \`visits = visits + 1\` stores 1 on the first visit; \`None - 2\` is -2,
  \`None * 3\` is 0, \`-None\` is 0, and dividing by it is \`division by zero\`;
- joined to text it is the empty text: \`'Hello, ' + name\` is \`Hello, \` while \`name\` is unset;
- it equals the empty text: \`name == ''\` is True (and \`name != ''\` False). It does not equal 0
  or False, and it is not ordered against anything: \`None < 3\` is False.

## Operators

From the loosest to the tightest binding, as in Python: \`or OR ||\`; \`and AND &&\`; \`not\`;
\`== != < > <= >=\`; \`+ -\`; \`* / %\`; unary \`-\`; \`**\` and \`^\` (power, right to left); calls
and indexing \`a[i]\` (\`a[-1]\` is the last item). \`and\` and \`or\` give one of their operands,
like Python.

Comparing values of different types never fails: \`==\` is False, \`!=\` True, and \`< > <= >=\`
False. Lists and dicts compare by content. Numbers and numeric texts compare by value, dates
and times in time (below), other texts alphabetically.

Numbers are finite: dividing by zero, or a result beyond ±1.8e308 (\`1e308 * 10\`,
\`pow(10, 400)\`), is an error (\`division by zero\`, \`the result is too large\`), never an
infinity stored in a variable.

## Dates and times

Texts \`dd.mm.yyyy\` and \`hh:mm\` take part in arithmetic: \`'11.12.2021' - '8.12.2021'\` is 3
(days), \`'11:12' - '3:45'\` is 447 (minutes), \`'28.02.2024' + 2\` is \`'01.03.2024'\`. Dates and
times of the system variables are in the project's time zone.

When both sides of a comparison are dates (\`dd.mm.yyyy\`, \`d.m.yyyy\`), both are times (\`hh:mm\`,
with or without a leading zero) or both are date-times (\`dd.mm.yyyy hh:mm\`, seconds optional),
\`== != < > <= >=\` compare them in time: \`current_date <= '01.04.2026'\` is True until that day,
\`'9:30' < '10:00'\` is True, \`'1.4.2026' == '01.04.2026'\` is True, and
\`'31.03.2026 23:59' < '01.04.2026 00:00'\` is True. A date beside a time or a date-time, or
beside other text, is compared as text. \`sort()\` orders lists of dates and times the same way.

## Lists: the order of arguments

\`in_array(item, list)\` takes the item first, while \`index\`, \`contains\`, \`remove\` and \`append\`
take the list first. All five accept both orders when the arguments tell them apart, that is
when exactly one of them is a list (for \`contains\`, a list or a dict): \`in_array(tags, 'vip')\`,
\`index('b', items)\` and \`append(3, [1, 2])\` work. When both are lists, the documented order
holds (\`append([1], [2])\` is \`[1, [2]]\`); an unset variable in the list's place is not taken
for the item (\`append(cart, 'tea')\` with \`cart\` unset says \`append: list must be a list\`).

## Regular expressions in conditions

A condition (of an arrow, a start trigger or a quick reply) in regular-expression mode takes
its whole text as one pattern, matched anywhere in the client's message (first 2000
characters), ignoring case (Unicode case folding included). Patterns run on a linear-time
engine (RE2 syntax), so no pattern can stall the bot, however it is written
(\`^(a+)+$\` included). What such an engine cannot do is refused in the editor with a clear
error, the same one the bot would meet: backreferences (\`(a)\\1\`), lookahead and lookbehind
(\`(?=\`, \`(?!\`, \`(?<=\`, \`(?<!\`), and repeat counts above 1000. Classes like \`\\d\`, \`\\w\`,
\`\\p{L}\`, named groups \`(?<name>...)\` and JavaScript's \`\\u0041\` escapes work.

## Variables and scopes

No prefix: the current deal; \`client.\`: the client profile; \`project.\`: project constants
(read-only here). Reading a name without a prefix looks in the deal, then the client, then the
project. System variables (\`client_id\`, \`name\`, \`question\`, \`current_date\`, ...) are read-only.

## Errors

A syntax error is marked in the editor as you type, and a formula with one cannot be saved.
At run time, a failing line writes its error text (\`Error: ...\`) into its variable, the other
lines still run, and the error shows in the simulator's log.

## Limits

| what | limit |
|---|---|
| source length | ${LIMITS.sourceLength} characters |
| nesting of brackets and operators | ${LIMITS.depth} levels |
| operators inside one another in one statement (\`a + b + c …\` counts each) | ${LIMITS.chainDepth} |
| steps per run | ${LIMITS.steps} |
| text length, and a list or dict written as text | ${LIMITS.stringLength} characters |
| list or dict size | ${LIMITS.listLength} items |
| values built in one run | ${LIMITS.memoryBytes / (1024 * 1024)} MB |
| run time (not counting waits for in-flow calls) | ${LIMITS.wallTimeMs} ms |
| in-flow function calls per run | ${LIMITS.hostCalls} |

### How values are measured

A formula cannot take the bot down, however it is written: past a limit, it gets an error.

- **Steps.** Every operation is a step, and an operation on lists, dicts or long texts is also
  a step per item it visits (and per ${CHARS_PER_STEP} characters it reads or writes): comparing two
  lists, \`str()\`, \`to_json()\`, \`sort()\`, \`in_array()\`, \`index()\`, \`contains()\`,
  \`replace()\`, \`split()\`, repeating a list. Past ${LIMITS.steps} steps, the run stops with
  \`the formula took more than ${LIMITS.steps} steps\`.
- **Size as text.** A list or dict is as long as its text: \`[[1] * 10000] * 10000\` holds one list
  10,000 times, and each copy counts. Storing it in a variable, \`str()\`, \`to_json()\`, joining it
  to a text or giving it to an in-flow function fails once it would pass ${LIMITS.stringLength}
  characters (\`the value would be longer than ${LIMITS.stringLength} characters as text\`), before
  the text is built. Functions that build texts or lists (\`replace()\`, \`concat()\`, \`split()\`,
  \`repeat()\`) check the size of their result before building it.
- **Memory.** The texts, lists and dicts one run builds are counted (roughly: 2 bytes per
  character, 8 per list item, 40 per dict entry), kept or not; past ${LIMITS.memoryBytes / (1024 * 1024)} MB the run stops
  with \`the formula built more than ${LIMITS.memoryBytes / (1024 * 1024)} MB of values\`.
- **Depth.** A statement whose operators sit more than ${LIMITS.chainDepth} deep inside one another
  (a chain of ${LIMITS.chainDepth + 1} \`+\` included) is marked in the editor; split it over several lines.

In-flow functions (messages, callbacks, HTTP requests, CRM, lists, tg messenger) need the
business or AI plan; on the free plan a call fails saying so (the editor warns where one is
written; a block whose \`ask_operator()\` fails does not send its message). Parameters are positional; pass \`None\` to
skip an optional one (and \`0\` to skip \`auth\` of the \`requests_*\` functions).

## Functions
`;

function render(): string {
  const groups = new Map<string, typeof catalogue>();
  for (const entry of catalogue) groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  const sections = [...groups].map(([group, entries]) => {
    const items = entries.map((e) => {
      const params = e.params.length
        ? e.params
            .map(
              (p) =>
                `- \`${p.name}\` (${p.type}${p.required ? '' : ', optional'}${p.default ? `, default \`${p.default}\`` : ''})`,
            )
            .join('\n')
        : '- no parameters';
      const plan = e.plan === 'business' ? '\n\nPlan: business or AI.' : '';
      return `#### ${e.name}\n\n\`${signature(e)}\`\n\n${e.doc}${plan}\n\n${params}\n\nExample: \`${e.example}\``;
    });
    return `### ${group}\n\n${items.join('\n\n')}`;
  });
  return `${intro}\n${sections.join('\n\n')}\n`;
}

const text = render();
if (process.argv.includes('--check')) {
  const current = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
  if (current !== text) {
    console.error('docs/formula.md is out of date: run `npx tsx scripts/gen-formula-docs.ts` and commit it.');
    process.exit(1);
  }
  console.log('docs/formula.md is current.');
} else {
  fs.writeFileSync(out, text);
  console.log(`wrote ${path.relative(process.cwd(), out)} (${catalogue.length} functions)`);
}
