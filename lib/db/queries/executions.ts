import { getDb } from "../client";
import { type ExecutionStatus, Prisma } from "../generated/client";

/** Agentflow runs (Execution rows): one per run, saved after every node. */

export async function insertExecution({
  data,
}: {
  data: { chatflowId: string; version: number; sessionId: string; chatId: string } & Partial<{
    state: Prisma.InputJsonValue;
    position: Prisma.InputJsonValue;
  }>;
}) {
  return (await getDb()).execution.create({ data });
}

export async function findExecutionById({ id }: { id: string }) {
  return (await getDb()).execution.findUnique({ where: { id } });
}

/** The latest run of a chat of a chatflow (what a resume continues), or null. */
export async function findLatestExecutionOfChat({ chatflowId, chatId }: { chatflowId: string; chatId: string }) {
  return (await getDb()).execution.findFirst({
    where: { chatflowId, chatId },
    orderBy: { createdAt: "desc" },
  });
}

/** Saves a run's progress (state, position, executed data, status). */
export async function saveExecution({
  id,
  data,
}: {
  id: string;
  data: {
    status: ExecutionStatus;
    state: Prisma.InputJsonValue;
    position: Prisma.InputJsonValue;
    executedData: Prisma.InputJsonValue;
    action?: Prisma.InputJsonValue | null;
    error?: string | null;
    finishedAt?: Date | null;
  };
}) {
  const { action, ...rest } = data;
  return (await getDb()).execution.update({
    where: { id },
    data: {
      ...rest,
      ...(action === undefined ? {} : { action: action === null ? Prisma.DbNull : action }),
    },
  });
}

/**
 * Takes a paused run for one resume: paused → running only if it is still paused (a second resume
 * at the same time finds it taken). Returns whether this caller got it.
 */
export async function claimPausedExecution({ id }: { id: string }): Promise<boolean> {
  const { count } = await (await getDb()).execution.updateMany({
    where: { id, status: "paused" },
    data: { status: "running" },
  });
  return count === 1;
}
