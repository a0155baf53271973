import { useState } from "react";
import { deleteSession, exportURL, specURL } from "../api/client";
import { AgentActivityIndicator } from "../components/AgentActivityIndicator";
import { AskUser } from "../components/AskUser";
import { useConfirm } from "../components/ConfirmDialog";
import { ContextMeter } from "../components/ContextMeter";
import { PastRounds } from "../components/PastRounds";
import { RenameTitle } from "../components/RenameTitle";
import { RoundView } from "../components/RoundView";
import { SpecView } from "../components/SpecView";
import { Link, navigate } from "../router";
import { canCancel } from "./HomePage";
import { currentRound, STOPPED } from "../state/session";
import { useSessionRun } from "../state/useSessionRun";

/** SessionPage runs one session: activity, questions, rounds and the final spec. */
export function SessionPage({ id }: { id: string }) {
  const { view, detail, loadError, submitScores, answer, resolve, resume, cancel, rename } = useSessionRun(id);
  const round = currentRound(view);
  const busy = view.phase === "streaming";
  const showPrompt = !busy && view.spec === null;
  const scoring = showPrompt && view.pending === "scores" && round !== null;
  // Every round not open for scoring stays readable, with what the user gave it.
  const past = scoring ? view.rounds.slice(0, -1) : view.rounds;
  const idle = view.phase === "idle" && !view.pending && view.spec === null && !view.error;
  const specMissing = idle && (view.resolved || view.waiting === "spec");
  const [removeError, setRemoveError] = useState<string | null>(null);
  const [dialog, ask] = useConfirm();

  const askCancel = async () => {
    const ok = await ask({
      title: "Cancel this session?",
      detail: "The agent stops and the session cannot be resumed. Its rounds stay in the evolution report.",
      confirm: "Yes, cancel it",
    });
    if (ok) await cancel();
  };

  const remove = async () => {
    const ok = await ask({
      title: "Delete this session?",
      detail: "Its rounds, scores and spec are deleted. This cannot be undone.",
      confirm: "Yes, delete it",
      danger: true,
    });
    if (!ok) return;
    try {
      await deleteSession(id);
      navigate("");
    } catch (e) {
      setRemoveError((e as Error).message);
    }
  };

  if (loadError) {
    return (
      <div role="alert" className="space-y-3">
        <p className="text-red-700">Could not open this session: {loadError}</p>
        <Link to="" className="text-blue-700 underline">
          Back to sessions
        </Link>
      </div>
    );
  }

  return (
    <div className="space-y-6">
      {dialog}
      <header className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <Link to="" className="text-blue-700 underline">
            ← Sessions
          </Link>
          <div className="flex items-center gap-3">
            <Link to={`sessions/${encodeURIComponent(id)}/report`} className="text-blue-700 underline">
              Evolution report
            </Link>
            {/* A finished session (its spec written) has nothing left to cancel, whatever its status said when the page opened. */}
            {(busy || (view.phase !== "failed" && view.spec === null && canCancel(detail?.status ?? ""))) && (
              <button
                type="button"
                onClick={() => void askCancel()}
                className="text-amber-800 underline"
              >
                Cancel session
              </button>
            )}
            <button type="button" onClick={() => void remove()} className="text-red-700 underline">
              Delete session
            </button>
          </div>
        </div>
        {detail ? <RenameTitle detail={detail} onRename={rename} /> : <h1 className="text-xl font-bold">Session</h1>}
        {detail && <p className="line-clamp-4 whitespace-pre-line break-words text-gray-700">{detail.problem}</p>}
        <p className="flex flex-wrap gap-3 text-sm">
          <span className="text-gray-500">Export the whole session:</span>
          <a href={exportURL(id, "md")} download className="text-blue-700 underline">
            Markdown (.md)
          </a>
          <a href={exportURL(id, "json")} download className="text-blue-700 underline">
            JSON (.json)
          </a>
        </p>
        {removeError && (
          <p role="alert" className="text-sm text-red-700">
            Could not delete: {removeError}
          </p>
        )}
        <ContextMeter usage={view.context} roundsLeft={view.roundsLeft} />
      </header>

      <AgentActivityIndicator
        phase={view.phase}
        agentText={view.agentText}
        activity={view.activity}
        toolErrors={view.toolErrors}
      />

      {view.error && (
        <div role="alert" className="space-y-2 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          <p className="font-medium">{view.error.message}</p>
          {view.error.code !== "CANCELLED" && view.error.code !== STOPPED && (
            <p className="text-xs text-red-700">
              Error code{" "}
              <span className="font-mono">
                {view.error.code}
                {view.error.apiCode && ` · ${view.error.apiCode}`}
              </span>
            </p>
          )}
          {view.error.code !== "CANCELLED" && !busy && (
            <button type="button" onClick={resume} className="rounded-lg bg-red-700 px-3 py-1.5 text-white">
              Resume
            </button>
          )}
        </div>
      )}

      {detail?.status === "cancelled" && view.phase !== "streaming" && (
        <p role="status" className="rounded-xl bg-amber-50 p-4 text-sm text-amber-900">
          This session was cancelled. Its rounds are in the{" "}
          <Link to={`sessions/${encodeURIComponent(id)}/report`} className="underline">
            evolution report
          </Link>
          .
        </p>
      )}

      {showPrompt && view.pending === "ask_user" && view.askUser && <AskUser data={view.askUser} onRespond={answer} />}

      <PastRounds rounds={past} />

      {scoring && round && (
        <RoundView
          key={round.number}
          premises={round.premises}
          roundNumber={round.number}
          onSubmitScores={submitScores}
          onResolve={resolve}
        />
      )}

      {view.spec !== null && <SpecView spec={view.spec} downloadUrl={view.specUrl ?? specURL(id)} sessionId={id} />}

      {specMissing && (
        <div role="status" className="space-y-2 rounded-xl bg-amber-50 p-4 text-sm text-amber-900">
          <p>You picked the winner, but the agent ended its turn without writing the spec.</p>
          <button type="button" onClick={resume} className="rounded-lg bg-amber-700 px-3 py-1.5 text-white">
            Continue: ask for the spec
          </button>
        </div>
      )}

      {idle && !specMissing && (view.agentText.length > 0 || (view.waiting === "nothing" && detail?.status === "active")) && (
        <div className="text-sm text-gray-600">
          The agent ended its turn without a question.{" "}
          <button type="button" onClick={resume} className="text-blue-700 underline">
            Continue
          </button>
        </div>
      )}
    </div>
  );
}
