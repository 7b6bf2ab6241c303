import { keysetArgs, pageFrom, type KeysetOrder } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";
import { getDb } from "../client";
import type { Prisma } from "../generated/client";

/** The ChatflowTestCase and ChatflowTestRun tables: a chatflow's test cases and the runs of them. */

export type TestCaseData = {
  name: string;
  question: string;
  history?: Prisma.InputJsonValue;
  overrideConfig?: Prisma.InputJsonValue;
  uploads?: Prisma.InputJsonValue;
  expectations: Prisma.InputJsonValue;
};

export async function listTestCases({ chatflowId, page }: { chatflowId: string; page?: PageRequest }) {
  const keyset = keysetArgs(TEST_CASE_ORDER, page);
  const rows = await (await getDb()).chatflowTestCase.findMany({
    where: { AND: [{ chatflowId }, keyset.where] },
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, TEST_CASE_ORDER, page);
}

const TEST_CASE_ORDER: KeysetOrder = { list: "chatflow-tests", field: "createdAt", direction: "asc", kind: "date" };

export async function countTestCases({ chatflowId }: { chatflowId: string }) {
  return (await getDb()).chatflowTestCase.count({ where: { chatflowId } });
}

export async function findTestCase({ chatflowId, id }: { chatflowId: string; id: string }) {
  return (await getDb()).chatflowTestCase.findFirst({ where: { id, chatflowId } });
}

export async function insertTestCases({ chatflowId, cases }: { chatflowId: string; cases: TestCaseData[] }) {
  const db = await getDb();
  return db.$transaction(cases.map((data) => db.chatflowTestCase.create({ data: { ...data, chatflowId } })));
}

/** Replaces a case's fields; null when it is not a case of that chatflow. */
export async function updateTestCase({ chatflowId, id, data }: { chatflowId: string; id: string; data: TestCaseData }) {
  const db = await getDb();
  const { count } = await db.chatflowTestCase.updateMany({
    where: { id, chatflowId },
    data: {
      ...data,
      // Optional fields left out of a PUT are cleared, not kept.
      history: data.history ?? (null as unknown as Prisma.InputJsonValue),
      overrideConfig: data.overrideConfig ?? (null as unknown as Prisma.InputJsonValue),
      uploads: data.uploads ?? (null as unknown as Prisma.InputJsonValue),
    },
  });
  return count ? db.chatflowTestCase.findUnique({ where: { id } }) : null;
}

export async function deleteTestCase({ chatflowId, id }: { chatflowId: string; id: string }) {
  const { count } = await (await getDb()).chatflowTestCase.deleteMany({ where: { id, chatflowId } });
  return count > 0;
}

export async function insertTestRun(input: {
  chatflowId: string;
  version: number;
  cases: Prisma.InputJsonValue;
  total: number;
  startedById: string | null;
}) {
  return (await getDb()).chatflowTestRun.create({ data: input });
}

export async function findTestRun({ chatflowId, id }: { chatflowId: string; id: string }) {
  return (await getDb()).chatflowTestRun.findFirst({ where: { id, chatflowId } });
}

export async function findTestRunById({ id }: { id: string }) {
  return (await getDb()).chatflowTestRun.findUnique({ where: { id } });
}

const runSummary = {
  id: true,
  chatflowId: true,
  version: true,
  status: true,
  total: true,
  passed: true,
  failed: true,
  error: true,
  createdAt: true,
  finishedAt: true,
} as const;

/** Runs of a chatflow (of one version when given), newest first, without their results. */
export async function listTestRuns({
  chatflowId,
  version,
  page,
}: {
  chatflowId: string;
  version?: number;
  page: PageRequest;
}) {
  const keyset = keysetArgs(TEST_RUN_ORDER, page);
  const rows = await (await getDb()).chatflowTestRun.findMany({
    where: { AND: [{ chatflowId, ...(version === undefined ? {} : { version }) }, keyset.where] },
    select: runSummary,
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, TEST_RUN_ORDER, page);
}

const TEST_RUN_ORDER: KeysetOrder = { list: "chatflow-test-runs", field: "createdAt", direction: "desc", kind: "date" };

/** The newest run of one version, with results; null when it never ran. */
export async function findLatestTestRun({ chatflowId, version }: { chatflowId: string; version: number }) {
  return (await getDb()).chatflowTestRun.findFirst({
    where: { chatflowId, version },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/** The newest run of each of these versions (summaries), for the versions list. */
export async function findLatestTestRunsByVersion({
  chatflowId,
  versions,
}: {
  chatflowId: string;
  versions: number[];
}) {
  if (!versions.length) return [];
  return (await getDb()).chatflowTestRun.findMany({
    where: { chatflowId, version: { in: versions } },
    select: runSummary,
    orderBy: [{ version: "asc" }, { createdAt: "desc" }, { id: "desc" }],
    distinct: ["version"],
  });
}

export async function markTestRunRunning({ id }: { id: string }) {
  await (await getDb()).chatflowTestRun.updateMany({ where: { id, status: "queued" }, data: { status: "running" } });
}

/** Stores the results so far (the run's progress). */
export async function saveTestRunProgress(input: {
  id: string;
  results: Prisma.InputJsonValue;
  passed: number;
  failed: number;
  finished: boolean;
}) {
  await (await getDb()).chatflowTestRun.updateMany({
    where: { id: input.id, status: { in: ["queued", "running"] } },
    data: {
      results: input.results,
      passed: input.passed,
      failed: input.failed,
      ...(input.finished ? { status: "finished", finishedAt: new Date() } : { status: "running" }),
    },
  });
}

/** Closes a run that could not finish (queue down, worker lost, restart). */
export async function failTestRun({ id, message }: { id: string; message: string }) {
  await (await getDb()).chatflowTestRun.updateMany({
    where: { id, status: { in: ["queued", "running"] } },
    data: { status: "failed", error: message, finishedAt: new Date() },
  });
}

/** Runs left queued or running by an earlier process (embedded mode forgets its jobs on restart). */
export async function failInterruptedTestRuns({ message, before }: { message: string; before: Date }) {
  const { count } = await (await getDb()).chatflowTestRun.updateMany({
    where: { status: { in: ["queued", "running"] }, createdAt: { lt: before } },
    data: { status: "failed", error: message, finishedAt: new Date() },
  });
  return count;
}
