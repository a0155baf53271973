import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import {
  ApiError,
  cancelSession,
  fetchSpec,
  getSession,
  openStream,
  renameSession,
  sendUserInput,
  specURL,
} from "../api/client";
import type { PremiseScore, SessionDetail, StreamEvent, WaitingFor } from "../types";
import { currentRound, initialView, reduce } from "./session";
import { saveRounds } from "./history";

/**
 * useSessionRun loads a session, opens its stream (which starts round 1 or
 * re-sends a paused session's pending prompt) and sends user input, each
 * input's SSE answer feeding the same reducer.
 */
export function useSessionRun(id: string) {
  const [view, dispatch] = useReducer(reduce, initialView);
  const [detail, setDetail] = useState<SessionDetail | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  const run = useCallback(async (turn: (onEvent: (e: StreamEvent) => void, signal: AbortSignal) => Promise<void>, input = false) => {
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    let done = false;
    let first = true;
    dispatch({ kind: "turn_started" });
    try {
      await turn((event) => {
        if (event.type === "done") done = true;
        if (first && input) dispatch({ kind: "input_accepted" });
        first = false;
        dispatch({ kind: "event", event });
      }, ctl.signal);
      if (!done && !ctl.signal.aborted) {
        dispatch({ kind: "stream_failed", message: "The stream ended before the agent finished its turn." });
      }
    } catch (e) {
      if (ctl.signal.aborted) return;
      const err = e as Error;
      dispatch({ kind: "stream_failed", message: err.message, code: err instanceof ApiError ? err.code : undefined });
    }
  }, []);

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const d = await getSession(id);
        if (!live) return;
        setDetail(d);
        const spec = d.status === "resolved" ? await fetchSpec(id) : null;
        if (!live) return;
        dispatch({
          kind: "loaded",
          rounds: d.rounds ?? [],
          spec,
          specUrl: spec !== null ? specURL(id) : null,
          status: d.status,
          waiting: d.waiting_for,
          runError: d.run_error,
        });
        // Opening a page never spends on its own: only a new session, a
        // prompt to re-show or a run in progress is streamed; a failed or
        // stopped run waits for Resume, a missing spec for Continue.
        if (spec === null && d.status !== "cancelled" && autoStream(d.waiting_for)) {
          void run((onEvent, signal) => openStream(id, onEvent, signal));
        }
      } catch (e) {
        if (live) setLoadError((e as Error).message);
      }
    })();
    return () => {
      live = false;
      abort.current?.abort();
    };
  }, [id, run]);

  useEffect(() => {
    if (view.rounds.length > 0) saveRounds(id, view.rounds);
  }, [id, view.rounds]);

  const submitScores = (scores: PremiseScore[]) => {
    dispatch({ kind: "scores_sent", scores });
    void run((onEvent, signal) => sendUserInput(id, { type: "scores", scores }, onEvent, signal), true);
  };

  const answer = (response: string) =>
    void run((onEvent, signal) => sendUserInput(id, { type: "ask_user_response", response }, onEvent, signal), true);

  const resolve = (index: number, scores: Record<string, number>) => {
    const round = currentRound(view);
    const winner = round?.premises[index];
    if (!round || !winner) return;
    dispatch({ kind: "resolved_sent", index });
    // Scores given in the last round travel with "resolved", so the server
    // keeps them (the winner's and its round's) for the report and exports.
    const given = round.premises
      .filter((p) => scores[p.id] !== undefined)
      .map((p) => ({ premise_id: p.id, premise_title: p.title, score: scores[p.id]! }));
    if (given.length > 0) dispatch({ kind: "scores_sent", scores: given });
    const score = scores[winner.id];
    void run((onEvent, signal) =>
      sendUserInput(
        id,
        {
          type: "resolved",
          winner: { title: winner.title, index, ...(score !== undefined ? { score } : {}) },
          ...(given.length > 0 ? { scores: given } : {}),
        },
        onEvent,
        signal,
      ),
      true,
    );
  };

  const resume = () => void run((onEvent, signal) => openStream(id, onEvent, signal));

  const rename = async (title: string) => {
    const d = await renameSession(id, title);
    setDetail((old) => (old ? { ...old, title: d.title } : d));
  };

  const cancel = async () => {
    try {
      await cancelSession(id);
    } catch (e) {
      dispatch({ kind: "stream_failed", message: (e as Error).message });
      return;
    }
    abort.current?.abort();
    dispatch({ kind: "stream_failed", message: "This session was cancelled. Its rounds stay in the evolution report.", code: "CANCELLED" });
  };

  return { view, detail, loadError, submitScores, answer, resolve, resume, cancel, rename };
}

/** autoStream says whether opening a session streams it: only when that costs nothing the user did not ask for. */
export function autoStream(w: WaitingFor | undefined): boolean {
  return w === undefined || w === "start" || w === "scores" || w === "ask_user" || w === "agent";
}
