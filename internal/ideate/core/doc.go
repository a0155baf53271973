// Package core is GhostPath's functional core: the per-session enforcement
// state, the six guardrail rules, the error hierarchy with its REST and SSE
// envelopes, the SSE event shapes, user-input validation and the repository
// contract the shell implements.
//
// Nothing here does I/O: every function is deterministic over plain data and
// is tested without fakes. The shell (tools, agent, store, httpapi) reads
// state, calls these functions, then writes the results (the "impureim
// sandwich" of the spec).
//
// # Rules
//
//  1. generate_premise, mutate_premise and cross_pollinate need the three
//     analysis gates (decompose_problem, map_conventional_approaches,
//     extract_hidden_axioms): GATES_NOT_SATISFIED.
//  2. The round buffer holds exactly 3 premises: ROUND_BUFFER_FULL.
//  3. An obviousness score above 0.6 removes the premise from the buffer
//     (0.6 passes, 0.61 fails): TOO_OBVIOUS.
//  4. A radical premise needs challenge_axiom first: AXIOM_NOT_CHALLENGED.
//  5. Rounds 2+ need get_negative_context first: NEGATIVE_CONTEXT_MISSING.
//  6. present_round needs 3 premises, all tested: INCOMPLETE_ROUND,
//     UNTESTED_PREMISES.
//
// # Where we differ from the original
//
//   - A negative premise_buffer_index is INVALID_INDEX (the original only
//     checked the upper bound).
//   - challenge_axiom on an axiom that extract_hidden_axioms never returned
//     answers the spec's WARNING (AXIOM_NOT_EXTRACTED, severity warning) and
//     does not unlock radical premises.
//   - generate_final_spec is refused (FINAL_SPEC_NOT_ALLOWED) unless the user
//     resolved the session.
//   - Obviousness results are kept on each buffered premise rather than as a
//     set of indices, so removing a premise never shifts another's "tested"
//     mark onto the wrong premise.
//   - The state is a plain JSON-serialisable value, persisted after every
//     turn, so sessions survive a restart.
package core
