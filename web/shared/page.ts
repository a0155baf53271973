/**
 * The page both UIs are served in: one HTML layout (charset, viewport, the
 * Tailwind body colours, the #root React mounts in) filled with a UI's
 * title, optional icon and the entry script of its index.html.
 */
export interface Page {
  title: string;
  icon?: string; // an SVG under the UI's public/ directory, e.g. "/favicon.svg"
}

/** layout returns the whole page for entry (the UI's index.html: its module script). */
export function layout(page: Page, entry: string): string {
  const icon = page.icon ? `\n    <link rel="icon" type="image/svg+xml" href="${page.icon}" />` : "";
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />${icon}
    <title>${page.title}</title>
  </head>
  <body class="bg-gray-50 text-gray-900">
    <div id="root"></div>
    ${entry.trim()}
  </body>
</html>
`;
}

/** paigePage is the Vite plugin that serves and builds index.html inside layout. */
export function paigePage(page: Page) {
  return {
    name: "paige-page",
    transformIndexHtml: { order: "pre" as const, handler: (html: string) => layout(page, html) },
  };
}
