import type { TreeNode, TreeUpdate } from "../protocol/types";

/** Row is one visible line of the file tree. */
export interface Row {
  node: TreeNode;
  depth: number;
}

function sortKids(kids: TreeNode[]): TreeNode[] {
  return kids.sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === "directory" ? -1 : 1));
}

function insert(node: TreeNode, parts: string[], type: TreeNode["type"], prefix: string): TreeNode {
  const [head, ...rest] = parts;
  if (head === undefined) return node;
  const path = prefix ? `${prefix}/${head}` : head;
  const kids = node.children ?? [];
  const i = kids.findIndex((k) => k.name === head);
  let child: TreeNode;
  if (rest.length === 0) {
    if (i >= 0) return node;
    child = type === "directory" ? { name: head, path, type, children: [] } : { name: head, path, type };
    return { ...node, children: sortKids([...kids, child]) };
  }
  const existing = i >= 0 ? kids[i]! : { name: head, path, type: "directory" as const, children: [] };
  child = insert(existing, rest, type, path);
  const next = i >= 0 ? kids.map((k, j) => (j === i ? child : k)) : sortKids([...kids, child]);
  return { ...node, children: next };
}

function remove(node: TreeNode, parts: string[]): TreeNode {
  const [head, ...rest] = parts;
  const kids = node.children;
  if (head === undefined || !kids) return node;
  const i = kids.findIndex((k) => k.name === head);
  if (i < 0) return node;
  if (rest.length === 0) return { ...node, children: kids.filter((_, j) => j !== i) };
  return { ...node, children: kids.map((k, j) => (j === i ? remove(k, rest) : k)) };
}

const split = (p: string) => p.split("/").filter(Boolean);

/** applyTreeUpdate applies one fs:tree_update to the tree (a new tree; the old one is unchanged). */
export function applyTreeUpdate(root: TreeNode, u: TreeUpdate): TreeNode {
  switch (u.action) {
    case "add":
    case "addDir": {
      const type = u.action === "add" ? "file" : "directory";
      if (u.newPath) return insert(remove(root, split(u.path)), split(u.newPath), type, "");
      return insert(root, split(u.path), type, "");
    }
    case "unlink":
    case "unlinkDir":
      return remove(root, split(u.path));
  }
  return root;
}

/**
 * visibleRows flattens the tree into the rows shown with the given
 * directories expanded (the root's children are always shown). The file
 * tree renders only the rows in view, so a 10,000-file project stays fast.
 */
export function visibleRows(root: TreeNode | null, expanded: ReadonlySet<string>): Row[] {
  const out: Row[] = [];
  const walk = (n: TreeNode, depth: number) => {
    for (const k of n.children ?? []) {
      out.push({ node: k, depth });
      if (k.type === "directory" && expanded.has(k.path)) walk(k, depth + 1);
    }
  };
  if (root) walk(root, 0);
  return out;
}

/** ancestors lists the directories containing path, outermost first ("a/b/c.ts" → ["a", "a/b"]). */
export function ancestors(path: string): string[] {
  const parts = split(path);
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
}
