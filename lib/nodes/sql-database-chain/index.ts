import { defineNode } from "../define";
import { sqlDatabaseChainDefinition } from "./definition";
import { buildSqlDatabaseChain } from "./runtime";

export const sqlDatabaseChain = defineNode({ definition: sqlDatabaseChainDefinition, runtime: buildSqlDatabaseChain });
