import { describe, expect, it } from 'vitest';
import {
  type Arrow,
  type ArrowInput,
  arrowSchema,
  type Block,
  type BlockInput,
  blockSchema,
} from './bot-schema';
import {
  arrowButtonText,
  buttonArrowsOf,
  buttonList,
  buttonTextOfHandle,
  firstAlternative,
  sourceHandleOf,
  syncArrowButton,
  syncButtonArrows,
  withFirstAlternative,
} from './buttons';

const block = (
  buttons: string[] | { hint: string; buttons: string[] },
  extra: Partial<BlockInput> = {},
): Block =>
  blockSchema.parse({
    id: 1,
    kind: 'state',
    buttons: Array.isArray(buttons)
      ? buttons.map((text) => ({ text }))
      : { hint: buttons.hint, buttons: buttons.buttons.map((text) => ({ text })) },
    ...extra,
  });
const exact = (id: number, alternatives: string, extra: Partial<ArrowInput> = {}): Arrow =>
  arrowSchema.parse({
    id,
    from: 1,
    to: 2,
    kind: 'condition',
    condition: { alternatives, match: 'exact' },
    ...extra,
  });
const texts = (b: Block) => buttonList(b.buttons).map((x) => x.text);
const alternatives = (arrows: readonly Arrow[]) => arrows.map((a) => a.condition?.alternatives ?? a.kind);

describe('buttons and their arrows', () => {
  it('lists the buttons of either variant and reads the first alternative', () => {
    expect(texts(block(['A', 'B']))).toEqual(['A', 'B']);
    expect(texts(block({ hint: 'Pick', buttons: ['C'] }))).toEqual(['C']);
    expect(buttonList(undefined)).toEqual([]);
    expect(firstAlternative({ alternatives: ' Prices ;price' })).toBe('Prices');
    expect(firstAlternative(undefined)).toBe('');
  });

  it('an arrow shown as a button adds its first alternative; other arrows add none', () => {
    expect(arrowButtonText(exact(1, 'Yes;yeah', { showAsButton: true }))).toBe('Yes');
    expect(arrowButtonText(exact(1, 'Yes'))).toBe('');
    expect(
      arrowButtonText(
        arrowSchema.parse({ id: 1, from: 1, to: 2, kind: 'unconditional', showAsButton: true }),
      ),
    ).toBe('');
  });

  it('an arrow leaves from the button it shows, from the own button its exact first alternative names, or from the block', () => {
    const own = ['Yes', 'No', 'Yes'];
    expect(sourceHandleOf(exact(7, 'Maybe', { showAsButton: true }), own)).toBe('a7');
    expect(sourceHandleOf(exact(7, 'No;nope'), own)).toBe('b1');
    // Repeated texts share the first button's handle.
    expect(sourceHandleOf(exact(7, 'Yes'), own)).toBe('b0');
    // A press sends the button's text and the engine ignores case and spacing: 'yes' follows 'Yes'.
    expect(sourceHandleOf(exact(7, 'yes'), own)).toBe('b0');
    expect(sourceHandleOf(exact(7, ' NO  '), own)).toBe('b1');
    expect(
      sourceHandleOf(exact(7, 'No', { condition: { alternatives: 'No', match: 'keywords' } }), own),
    ).toBeNull();
    expect(sourceHandleOf(exact(7, 'Other'), own)).toBeNull();
    expect(
      sourceHandleOf(arrowSchema.parse({ id: 7, from: 1, to: 2, kind: 'unconditional' }), own),
    ).toBeNull();
  });

  it('finds the text behind a handle', () => {
    const b = block(['Yes', 'No']);
    const arrows = [exact(4, 'Later;l', { showAsButton: true }), exact(5, 'Other', { from: 9 })];
    expect(buttonTextOfHandle(b, arrows, 'b1')).toBe('No');
    expect(buttonTextOfHandle(b, arrows, 'a4')).toBe('Later');
    expect(buttonTextOfHandle(b, arrows, 'b5')).toBeNull();
    expect(buttonTextOfHandle(b, arrows, 'a5')).toBeNull();
    expect(buttonTextOfHandle(b, arrows, null)).toBeNull();
  });

  it('replaces only the first alternative, keeping the others as written', () => {
    const condition = exact(1, 'Prices; price;cost').condition;
    expect(withFirstAlternative(condition!, 'Plans').alternatives).toBe('Plans; price;cost');
    expect(withFirstAlternative(exact(1, 'Yes').condition!, 'Sure').alternatives).toBe('Sure');
  });

  it('groups a block’s arrows by the button they leave from', () => {
    const b = block(['Yes', 'No']);
    const arrows = [
      exact(1, 'Yes'),
      exact(2, 'Yes', { condition: { alternatives: 'Yes', match: 'exact', expression: 'vip' } }),
      exact(3, 'Later', { showAsButton: true }),
      exact(4, 'Other'),
      exact(5, 'No', { from: 9 }),
    ];
    const { own, shown } = buttonArrowsOf(b, arrows);
    expect(own.map((list) => list.map((a) => a.id))).toEqual([[1, 2], []]);
    expect(shown.map((s) => [s.arrow.id, s.text])).toEqual([[3, 'Later']]);
  });
});

describe('editing a block’s buttons edits their arrows', () => {
  const arrows = [
    exact(1, 'Yes;yep'),
    exact(2, 'No'),
    exact(3, 'Yes', { from: 9 }),
    exact(4, 'Later', { showAsButton: true }),
  ];

  it('renaming a button renames the first alternative of its arrows only', () => {
    const next = syncButtonArrows(arrows, block(['Yes', 'No']), block(['Sure', 'No']));
    expect(alternatives(next)).toEqual(['Sure;yep', 'No', 'Yes', 'Later']);
    expect(next[1]).toBe(arrows[1]);
  });

  it('in the hint variant too', () => {
    const next = syncButtonArrows(
      arrows,
      block({ hint: 'Pick', buttons: ['Yes', 'No'] }),
      block({ hint: 'Pick', buttons: ['Yes', 'Nope'] }),
    );
    expect(alternatives(next)).toEqual(['Yes;yep', 'Nope', 'Yes', 'Later']);
  });

  it('reordering, adding a button or another field changes no arrow', () => {
    expect(syncButtonArrows(arrows, block(['Yes', 'No']), block(['No', 'Yes']))).toBe(arrows);
    expect(syncButtonArrows(arrows, block(['Yes', 'No']), block(['Yes', 'No', 'New']))).toBe(arrows);
    expect(syncButtonArrows(arrows, block(['Yes']), block(['Yes'], { text: 'hi' }))).toBe(arrows);
  });

  it('a text an exact match cannot be (empty, or with ;) leaves the arrow as it was', () => {
    expect(syncButtonArrows(arrows, block(['Yes', 'No']), block(['Yes', 'a;b']))).toBe(arrows);
    expect(syncButtonArrows(arrows, block(['Yes', 'No']), block(['Yes', ' ']))).toBe(arrows);
  });

  it('a repeated text’s arrows belong to its first button', () => {
    const next = syncButtonArrows(arrows, block(['Yes', 'Yes']), block(['Yes', 'Sure']));
    expect(next).toBe(arrows);
    expect(alternatives(syncButtonArrows(arrows, block(['Yes', 'Yes']), block(['Sure', 'Yes'])))).toEqual([
      'Sure;yep',
      'No',
      'Yes',
      'Later',
    ]);
  });

  it('removing a button removes its arrows, unless another button keeps its text', () => {
    expect(syncButtonArrows(arrows, block(['Yes', 'No']), block(['No'])).map((a) => a.id)).toEqual([2, 3, 4]);
    expect(syncButtonArrows(arrows, block(['Yes', 'No']), block(['Yes'])).map((a) => a.id)).toEqual([
      1, 3, 4,
    ]);
    expect(syncButtonArrows(arrows, block(['Yes', 'No', 'Yes']), block(['No', 'Yes']))).toBe(arrows);
    expect(syncButtonArrows(arrows, block(['Maybe', 'No']), block(['No']))).toBe(arrows);
  });
});

describe('editing a button’s arrow edits the button', () => {
  const own = block(['Yes', 'No']);
  const arrows = [exact(1, 'Yes'), exact(2, 'Yes', { to: 3 }), exact(3, 'No')];

  it('a new first alternative renames the button and its other arrows', () => {
    const after = exact(1, 'Sure;ok');
    const synced = syncArrowButton(own, arrows, arrows[0], after);
    expect(synced && texts(synced.block)).toEqual(['Sure', 'No']);
    expect(synced && alternatives(synced.arrows)).toEqual(['Sure;ok', 'Sure', 'No']);
    expect(synced?.arrows[0]).toBe(after);
  });

  it('keeps the hint variant', () => {
    const hinted = block({ hint: 'Pick', buttons: ['Yes', 'No'] });
    const synced = syncArrowButton(hinted, arrows, arrows[2], exact(3, 'Nope'));
    expect(synced?.block.buttons).toEqual({
      hint: 'Pick',
      buttons: [expect.objectContaining({ text: 'Yes' }), expect.objectContaining({ text: 'Nope' })],
    });
  });

  it('changes nothing for other edits or arrows', () => {
    expect(syncArrowButton(own, arrows, arrows[0], exact(1, 'Yes;ok'))).toBeNull();
    expect(
      syncArrowButton(
        own,
        arrows,
        arrows[0],
        exact(1, 'Sure', { condition: { alternatives: 'Sure', match: 'keywords' } }),
      ),
    ).toBeNull();
    expect(syncArrowButton(own, arrows, arrows[0], exact(1, 'Sure', { showAsButton: true }))).toBeNull();
    expect(syncArrowButton(own, arrows, arrows[0], exact(1, ''))).toBeNull();
    const other = exact(9, 'Hello');
    expect(syncArrowButton(own, [...arrows, other], other, exact(9, 'Bye'))).toBeNull();
  });
});
