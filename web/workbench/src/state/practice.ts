import type { Envelope, KataLoad, ReviewResponse } from "../protocol/types";

export interface PracticeSlice {
  kataId: string | null;
  kata: KataLoad | null;
  loadError: string | null;
  submitting: boolean;
  review: ReviewResponse | null;
  reviewError: string | null;
}

export const initialPractice: PracticeSlice = { kataId: null, kata: null, loadError: null, submitting: false, review: null, reviewError: null };

export type PracticeAction =
  | { kind: "practice/open"; kataId: string }
  | { kind: "practice/submit" };

/**
 * reducePractice applies the kata being opened (practice:kata_load), a
 * submission and its review (practice:solution_review or review:response),
 * or the review's error. Answers about another kata are ignored.
 */
export function reducePractice(s: PracticeSlice, a: Envelope | PracticeAction): PracticeSlice {
  if ("kind" in a) {
    if (a.kind === "practice/open") return a.kataId === s.kataId ? s : { ...initialPractice, kataId: a.kataId };
    return { ...s, submitting: true, reviewError: null };
  }
  const p = a.payload as Record<string, unknown>;
  switch (a.type) {
    case "practice:kata_load": {
      const k = a.payload as KataLoad;
      if (s.kataId && k.kata?.id !== s.kataId) return s;
      return { ...s, kataId: k.kata.id, kata: k, loadError: null }; // a refresh keeps the review shown
    }
    case "practice:solution_review":
    case "review:response": {
      const r = a.payload as ReviewResponse;
      if (r.kataId !== s.kataId) return s;
      return { ...s, submitting: false, review: r, reviewError: null };
    }
    case "review:error":
      if (p.kataId !== s.kataId) return s;
      if (!s.submitting) return { ...s, loadError: String(p.error) };
      return { ...s, submitting: false, reviewError: String(p.error) };
  }
  return s;
}
