/** A media query's answer as jsdom lacks it: whether it matches, and listeners that never fire. */
export function mediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  };
}

/**
 * Makes the window this wide (px) for antd's breakpoint queries, so a table shows the columns it
 * shows at that width (jsdom's own matchMedia matches nothing: every responsive column is hidden).
 * Answers a function that puts jsdom's matchMedia back.
 */
export function screenWidth(width: number): () => void {
  const jsdomMatchMedia = window.matchMedia;
  window.matchMedia = ((query: string) => {
    const least = /min-width:\s*(\d+)px/.exec(query);
    const most = /max-width:\s*(\d+(?:\.\d+)?)px/.exec(query);
    const matches = (!least || width >= Number(least[1])) && (!most || width <= Number(most[1]));
    return mediaQueryList(query, matches);
  }) as typeof window.matchMedia;
  return () => {
    window.matchMedia = jsdomMatchMedia;
  };
}
