'use client';

import { Search } from 'lucide-react';
import { memo, useDeferredValue, useId, useMemo, useState } from 'react';
import { cn } from '@/components/ui/cn';
import type { Block } from '@/lib/schema';
import { blockKindStyle } from './block-colors';
import { matchingFormulaLine, searchBlocks } from './search';

/** Finds blocks by id, name, text or formula; Enter or a click jumps to one (centres and selects it). */
export const SearchBox = memo(function SearchBox({
  blocks,
  onJump,
}: {
  blocks: readonly Block[];
  onJump(blockId: number): void;
}) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const deferred = useDeferredValue(query);
  const results = useMemo(() => searchBlocks(blocks, deferred), [blocks, deferred]);
  const listId = useId();
  const shown = open && query.trim() !== '';

  function jump(block: Block | undefined) {
    if (!block) return;
    onJump(block.id);
    setOpen(false);
  }

  return (
    <div className="relative">
      <Search
        className="pointer-events-none absolute top-1/2 left-2 size-3.5 -translate-y-1/2 text-slate-400"
        aria-hidden
      />
      <input
        type="search"
        role="combobox"
        aria-label="Search blocks"
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown && results[active] ? `${listId}-${results[active].id}` : undefined}
        placeholder="Id, name, text, formula"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((i) => Math.min(i + 1, results.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((i) => Math.max(i - 1, 0));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            // Enter right after typing searches the typed text, not the deferred one.
            jump(searchBlocks(blocks, query)[active] ?? searchBlocks(blocks, query)[0]);
          } else if (e.key === 'Escape') {
            setOpen(false);
          }
        }}
        className="h-8 w-56 rounded-md border border-slate-300 bg-white pr-2 pl-7 text-sm placeholder:text-slate-400 focus:border-brand-500 focus:outline-2 focus:outline-brand-100"
      />
      {shown ? (
        <div
          id={listId}
          role="listbox"
          aria-label="Matching blocks"
          className="absolute top-full right-0 z-30 mt-1 max-h-72 w-72 overflow-y-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          {results.length === 0 ? (
            <li className="px-3 py-1.5 text-xs text-slate-500">No block matches.</li>
          ) : null}
          {results.map((block, i) => {
            const formulaLine = matchingFormulaLine(block, deferred);
            return (
              <div
                key={block.id}
                tabIndex={-1}
                id={`${listId}-${block.id}`}
                role="option"
                aria-selected={i === active}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => jump(block)}
                onMouseEnter={() => setActive(i)}
                className={cn('cursor-pointer px-3 py-1.5 text-xs', i === active && 'bg-brand-50')}
              >
                <span className="font-mono text-slate-500">#{block.id}</span>{' '}
                <span className="font-medium">{block.name || blockKindStyle[block.kind].label}</span>
                {block.text ? <span className="block truncate text-slate-500">{block.text}</span> : null}
                {formulaLine ? (
                  <span className="block truncate font-mono text-slate-500">Σ {formulaLine}</span>
                ) : null}
              </div>
            );
          })}
        </div>
      ) : null}
    </div>
  );
});
