import type { PageRequest } from "@/common/schemas/pagination";
import { mapPage, type Page } from "../../db/keyset";
import { AppError } from "@/common/errors";
import type { z } from "zod";
import type { ChatflowTestCase, Prisma } from "../../db/generated/client";
import { parseStoredJson } from "../../db/stored-json";
import {
  countTestCases,
  deleteTestCase,
  insertTestCases,
  listTestCases,
  updateTestCase,
  type TestCaseData,
} from "../../db/queries/chatflow-tests";
import type { Caller } from "@/common/access/callers";
import { CASES_MAX, type TestCase, type TestCaseBody, testCaseBodySchema } from "@/common/schemas/chatflow-tests";
import { getChatflowOrThrow } from "../chatflows";
import { assertExpectationsUsable } from "./expectations";

/** The API's view of a stored case; its JSON columns read with the schema they were saved through. */
export function toTestCaseDto(row: ChatflowTestCase): TestCase {
  const { shape } = testCaseBodySchema;
  const read = <S extends z.ZodType>(schema: S, column: string, value: unknown) =>
    parseStoredJson(schema, value, { table: "ChatflowTestCase", column, id: row.id });
  return {
    id: row.id,
    chatflowId: row.chatflowId,
    name: row.name,
    question: row.question,
    ...(row.history ? { history: read(shape.history, "history", row.history) } : {}),
    ...(row.overrideConfig ? { overrideConfig: read(shape.overrideConfig, "overrideConfig", row.overrideConfig) } : {}),
    ...(row.uploads ? { uploads: read(shape.uploads, "uploads", row.uploads) } : {}),
    expectations: read(shape.expectations, "expectations", row.expectations),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A checked case body as table data (patterns and schemas compiled: a bad one is a 400 naming it). */
export function testCaseData(body: TestCaseBody): TestCaseData {
  assertExpectationsUsable(body.expectations);
  return {
    name: body.name,
    question: body.question,
    ...(body.history ? { history: body.history } : {}),
    ...(body.overrideConfig ? { overrideConfig: body.overrideConfig as Prisma.InputJsonValue } : {}),
    ...(body.uploads ? { uploads: body.uploads } : {}),
    expectations: body.expectations as Prisma.InputJsonValue,
  };
}

/** The test cases of a chatflow the caller may test, oldest first (a page of them with `page`). */
export async function listChatflowTestCases(
  chatflowId: string,
  caller: Caller,
  page?: PageRequest,
): Promise<Page<TestCase>> {
  await getChatflowOrThrow(chatflowId, caller, "chatflow.test");
  return mapPage(await listTestCases({ chatflowId, page }), toTestCaseDto);
}

/** Adds a case; 409 past CASES_MAX cases. */
export async function createChatflowTestCase(chatflowId: string, body: TestCaseBody, caller: Caller) {
  await getChatflowOrThrow(chatflowId, caller, "chatflow.test");
  const data = testCaseData(body);
  if ((await countTestCases({ chatflowId })) >= CASES_MAX) {
    throw new AppError("conflict", `A chatflow holds at most ${CASES_MAX} test cases; delete some first.`);
  }
  const [row] = await insertTestCases({ chatflowId, cases: [data] });
  return toTestCaseDto(row!);
}

/** Replaces a case; 404 when it is not a case of this chatflow. */
export async function updateChatflowTestCase(chatflowId: string, caseId: string, body: TestCaseBody, caller: Caller) {
  await getChatflowOrThrow(chatflowId, caller, "chatflow.test");
  const row = await updateTestCase({ chatflowId, id: caseId, data: testCaseData(body) });
  if (!row) throw new AppError("not_found", `Test case ${caseId} not found.`);
  return toTestCaseDto(row);
}

export async function deleteChatflowTestCase(chatflowId: string, caseId: string, caller: Caller) {
  await getChatflowOrThrow(chatflowId, caller, "chatflow.test");
  if (!(await deleteTestCase({ chatflowId, id: caseId })))
    throw new AppError("not_found", `Test case ${caseId} not found.`);
  return { deleted: true, id: caseId };
}
