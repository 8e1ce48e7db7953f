import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from './api';

/** A page of a list as the API answers it (`next_cursor` null on the last page), or the API's refusal. */
export type ListPage<Item> = { page?: { items: Item[]; next_cursor: string | null }; error?: unknown };

/**
 * A list of the API read a page at a time: the first page read when shown and again whenever `key` changes (a
 * filter), the next one on `more()` while the API gives a `next_cursor`; `reload()` reads the first page again. An
 * answer to a request made under an older `key` is dropped, so a slow page of the previous filter never lands in the
 * new list. `replace(item)` shows an item as an action's answer gives it, in place, the pages read kept: reading the
 * list again could show it as it was (the API lists some from an index a moment behind).
 */
export function usePages<Item extends { id: string }>(
  readPage: (cursor: string | null) => Promise<ListPage<Item>>,
  key: string,
) {
  const [items, setItems] = useState<Item[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [failure, setFailure] = useState<string>();
  const currentKey = useRef(key);
  currentKey.current = key;

  const read = async (after: string | null) => {
    const asked = key;
    const { page, error } = await readPage(after);
    if (asked !== currentKey.current) return;
    if (!page) return setFailure(messageOf(error));
    setFailure(undefined);
    setItems((known) => (after === null ? page.items : [...(known ?? []), ...page.items]));
    setCursor(page.next_cursor);
  };

  useEffect(() => {
    setItems(undefined);
    void read(null);
  }, [key]);

  const replace = (item: Item) => setItems((known) => known?.map((each) => (each.id === item.id ? item : each)));

  return { items, failure, hasMore: cursor !== null, more: () => void read(cursor), reload: () => read(null), replace };
}
