import { useState } from "react";

/** CopyLine shows a command with a Copy button (the clipboard API; where it is refused, the text is selected for Ctrl+C). */
export function CopyLine({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = (e: React.MouseEvent<HTMLButtonElement>) => {
    const code = e.currentTarget.parentElement?.querySelector("code");
    const select = () => {
      if (!code) return;
      const r = document.createRange();
      r.selectNodeContents(code);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(r);
    };
    if (!navigator.clipboard) return select();
    navigator.clipboard.writeText(text).then(() => { setCopied(true); setTimeout(() => setCopied(false), 1500); }, select);
  };
  return (
    <div className="flex min-w-0 items-center gap-2 rounded bg-gray-900 px-2 py-1 text-xs text-gray-100">
      <code className="min-w-0 flex-1 break-all" data-copy={label}>{text}</code>
      <button type="button" aria-label={`Copy ${label}`} onClick={copy} className="shrink-0 rounded border border-gray-600 px-1.5 py-0.5 hover:bg-gray-700">
        {copied ? "Copied" : "Copy"}
      </button>
    </div>
  );
}
