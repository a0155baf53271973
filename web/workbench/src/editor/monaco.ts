// The Monaco editor as the workbench loads it: the editor core, the syntax
// of common languages (each loaded on first use) and its web worker bundled
// by Vite — nothing comes from a CDN. Only CodeEditor imports this module,
// and CodeEditor is loaded lazily when the Work or Practice view opens.
import * as monaco from "monaco-editor/editor/editor.api";
import EditorWorker from "monaco-editor/editor/editor.worker?worker";
import "monaco-editor/languages/definitions/typescript/register";
import "monaco-editor/languages/definitions/javascript/register";
import "monaco-editor/languages/definitions/go/register";
import "monaco-editor/languages/definitions/python/register";
import "monaco-editor/languages/definitions/markdown/register";
import "monaco-editor/languages/definitions/css/register";
import "monaco-editor/languages/definitions/html/register";
import "monaco-editor/languages/definitions/shell/register";
import "monaco-editor/languages/definitions/yaml/register";
import "monaco-editor/languages/definitions/rust/register";
import "monaco-editor/languages/definitions/java/register";
import "monaco-editor/languages/definitions/sql/register";

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };

export { monaco };
