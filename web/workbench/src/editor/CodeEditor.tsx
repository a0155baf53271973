import { useEffect, useRef } from "react";
import type { EditorRange, Highlight, HoverHint } from "../protocol/types";
import { monaco } from "./monaco";

/** ExplainRequest is what Explain This sends for the current selection (user:explain). */
export interface ExplainRequest {
  path: string;
  language: string;
  selectedText: string;
  selection: { startLine: number; startCol: number; endLine: number; endCol: number };
  surroundingContext: string;
}

export interface CodeEditorProps {
  path: string;
  language: string;
  value: string;
  readOnly?: boolean;
  highlights?: Highlight[];
  hovers?: HoverHint[];
  reveal?: { line: number; seq: number } | null;
  onChange?(value: string, line: number, column: number): void;
  onSave?(): void;
  onExplain?(req: ExplainRequest): void;
  onSelection?(range: EditorRange, textLength: number): void;
  /** explainRef receives a function that runs Explain This (for a toolbar button). */
  explainRef?: { current: (() => void) | null };
}

const models = new Map<string, monaco.editor.ITextModel>();

function modelFor(path: string, language: string, value: string): monaco.editor.ITextModel {
  let m = models.get(path);
  if (!m || m.isDisposed()) {
    m = monaco.editor.createModel(value, language || undefined, monaco.Uri.from({ scheme: "paige", path: "/" + path }));
    models.set(path, m);
  } else if (m.getValue() !== value) {
    m.pushEditOperations([], [{ range: m.getFullModelRange(), text: value }], () => null);
  }
  if (language && m.getLanguageId() !== language) monaco.editor.setModelLanguage(m, language);
  return m;
}

/** disposeModel frees the model of a closed tab. */
export function disposeModel(path: string): void {
  models.get(path)?.dispose();
  models.delete(path);
}

function decorationsOf(highlights: Highlight[], hovers: HoverHint[]): monaco.editor.IModelDeltaDecoration[] {
  const out: monaco.editor.IModelDeltaDecoration[] = highlights.map((h) => ({
    range: new monaco.Range(h.start, 1, h.end, 1),
    options: {
      isWholeLine: true,
      className: `pg-line-${h.style || "info"}`,
      glyphMarginClassName: "pg-glyph",
      hoverMessage: h.hoverText ? { value: h.hoverText } : undefined,
    },
  }));
  for (const h of hovers) {
    out.push({
      range: new monaco.Range(h.range.startLine, h.range.startColumn || 1, h.range.endLine, h.range.endColumn || 1000),
      options: { inlineClassName: "pg-hover", hoverMessage: { value: h.hintText } },
    });
  }
  return out;
}

/**
 * CodeEditor is one Monaco editor showing the model of `path` (one model per
 * file, kept across tab switches). It reports edits with the cursor,
 * Ctrl/Cmd+S, selections and Explain This (Ctrl/Cmd+Shift+E or the context
 * menu), and shows Paige's highlights and hover hints as decorations.
 */
export default function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const ed = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const deco = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const cb = useRef(props);
  cb.current = props;
  const applying = useRef(false);

  useEffect(() => {
    const e = monaco.editor.create(host.current!, {
      automaticLayout: true,
      minimap: { enabled: false },
      glyphMargin: true,
      fontSize: 13,
      scrollBeyondLastLine: false,
      readOnly: !!cb.current.readOnly,
    });
    ed.current = e;
    deco.current = e.createDecorationsCollection();
    const subs = [
      e.onDidChangeModelContent(() => {
        if (applying.current) return;
        const pos = e.getPosition();
        cb.current.onChange?.(e.getValue(), pos?.lineNumber ?? 1, pos?.column ?? 1);
      }),
      e.onDidChangeCursorSelection((ev) => {
        const s = ev.selection;
        if (s.isEmpty()) return;
        const text = e.getModel()?.getValueInRange(s) ?? "";
        cb.current.onSelection?.({ startLine: s.startLineNumber, startColumn: s.startColumn, endLine: s.endLineNumber, endColumn: s.endColumn }, text.length);
      }),
    ];
    e.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => cb.current.onSave?.());
    e.addAction({
      id: "paige.explain",
      label: "Explain This",
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyMod.Shift | monaco.KeyCode.KeyE],
      contextMenuGroupId: "navigation",
      contextMenuOrder: 0,
      run: () => explainSelection(e, cb.current),
    });
    if (cb.current.explainRef) cb.current.explainRef.current = () => explainSelection(e, cb.current);
    return () => {
      subs.forEach((s) => s.dispose());
      e.dispose();
    };
  }, []);

  useEffect(() => {
    const e = ed.current!;
    applying.current = true;
    const m = modelFor(props.path, props.language, props.value);
    if (e.getModel() !== m) e.setModel(m);
    applying.current = false;
  }, [props.path, props.language, props.value]);

  useEffect(() => {
    deco.current?.set(decorationsOf(props.highlights ?? [], props.hovers ?? []));
  }, [props.path, props.highlights, props.hovers]);

  useEffect(() => {
    if (props.reveal) {
      ed.current?.revealLineInCenter(props.reveal.line);
      ed.current?.setPosition({ lineNumber: props.reveal.line, column: 1 });
      ed.current?.focus();
    }
  }, [props.reveal?.seq]); // eslint-disable-line react-hooks/exhaustive-deps

  return <div ref={host} className="h-full w-full" data-testid="code-editor" data-path={props.path} />;
}

/** explainSelection asks for an explanation of the editor's selection (or its current line). */
export function explainSelection(e: monaco.editor.ICodeEditor, p: Pick<CodeEditorProps, "path" | "language" | "onExplain">): void {
  const m = e.getModel();
  let s = e.getSelection();
  if (!m || !s || !p.onExplain) return;
  if (s.isEmpty()) s = new monaco.Selection(s.startLineNumber, 1, s.startLineNumber, m.getLineMaxColumn(s.startLineNumber));
  const from = Math.max(1, s.startLineNumber - 10);
  const to = Math.min(m.getLineCount(), s.endLineNumber + 10);
  p.onExplain({
    path: p.path,
    language: p.language,
    selectedText: m.getValueInRange(s),
    selection: { startLine: s.startLineNumber, startCol: s.startColumn, endLine: s.endLineNumber, endCol: s.endColumn },
    surroundingContext: m.getValueInRange(new monaco.Range(from, 1, to, m.getLineMaxColumn(to))),
  });
}
