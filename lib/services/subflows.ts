import { AppError } from "@/common/errors";
import type { Caller } from "@/common/access/callers";
import { mayAct } from "@/common/access/permissions";
import type { PredictionBody } from "@/common/schemas/prediction";
import type { RunSubflow } from "../agentflow/types";
import type { Chatflow } from "../db/generated/client";
import { findUserById } from "../db/queries/users";
import { runAgentflowTurn } from "./agentflow-runs";
import { chatflowAtVersion } from "./chatflow-versions";
import { getChatflowForRun } from "./chatflows";
import { getBuiltFlow } from "./flows";

/**
 * Execute Flow's runner: another flow answers a question for an agentflow, with the rights of the
 * calling flow's owner (a flow they may run: their own, or any for an admin), at its published
 * version, in the same chat. Flows calling flows stop at MAX_FLOW_DEPTH (422).
 */

/** How deep flows may call flows (the first flow's Execute Flow is depth 1). */
export const MAX_FLOW_DEPTH = 3;

/** The caller a flow's sub-flows run as: its owner (an unowned flow reaches only unowned flows). */
async function ownerCaller(ownerId: string | null): Promise<Caller | undefined> {
  const user = ownerId ? await findUserById({ id: ownerId }) : null;
  if (!user) return undefined;
  return { kind: "user", via: "session", user: { id: user.id, email: user.email, name: user.name, role: user.role } };
}

async function runnableFor(parent: Chatflow, id: string, node: string): Promise<Chatflow> {
  const unknown = new AppError("not_found", `${node}: flow ${id} does not exist or its owner may not run it.`);
  const row = await getChatflowForRun(id).catch((e: unknown) => {
    throw e instanceof AppError && e.code === "not_found" ? unknown : e;
  });
  const caller = await ownerCaller(parent.ownerId);
  const allowed = caller ? mayAct(caller, "chatflow.predict", row.ownerId) : row.ownerId === null;
  if (!allowed) throw unknown;
  return chatflowAtVersion(row, "published");
}

/** The runner an agentflow run of `parent` gives its Execute Flow nodes (`depth`: flows above this one). */
export function subflowRunner(
  parent: { chatflow: Chatflow; chatId: string; sessionId: string },
  depth = 0,
): RunSubflow {
  return async (req) => {
    const node = `Execute Flow "${req.label}" (${req.nodeId})`;
    if (depth + 1 > MAX_FLOW_DEPTH)
      throw new AppError(
        "unprocessable",
        `${node}: flows calling flows went deeper than ${MAX_FLOW_DEPTH} levels (does a flow call itself?).`,
      );
    const chatflow = await runnableFor(parent.chatflow, req.chatflowId, node);
    const flow = await getBuiltFlow(chatflow, req.overrideConfig);
    if (!flow.agentflow)
      return { text: (await flow.run({ question: req.question, history: [], signal: req.signal })).text };
    const turn = await runAgentflowTurn({
      flow: flow.agentflow,
      chatflow,
      chatId: parent.chatId,
      sessionId: parent.sessionId,
      question: req.question,
      history: [],
      body: { question: req.question } as PredictionBody,
      runSubflow: subflowRunner({ ...parent, chatflow }, depth + 1),
      ...(req.signal ? { signal: req.signal } : {}),
    });
    return { text: turn.text };
  };
}
