/**
 * A Svelte action for HTML the app does not write element by element (lesson
 * bodies): every `pre` under the node, which may scroll sideways, gets
 * `tabindex="0"` so a keyboard can reach and scroll it.
 */
export function focusablePre(node: HTMLElement): { destroy(): void } {
  const apply = () => {
    for (const pre of node.querySelectorAll('pre')) if (!pre.hasAttribute('tabindex')) pre.tabIndex = 0;
  };
  apply();
  const watch = new MutationObserver(apply);
  watch.observe(node, { childList: true, subtree: true });
  return { destroy: () => watch.disconnect() };
}
