import type { GraphProblem, GraphProblemDetail, NodeRef } from "./problems";

/**
 * The one place a graph problem becomes words. Three scopes, by where the sentence is shown:
 * - "flow": the whole sentence, naming node and input (the API's error message and details);
 * - "node": on the node itself, so without the node's name;
 * - "input": under the input it concerns, so without the node's or the input's name.
 */
export type ProblemScope = "flow" | "node" | "input";

/** `"Label" (id)`: how a sentence names a node. */
export function nodeName(ref: NodeRef): string {
  return `"${ref.label}" (${ref.id})`;
}

type Parts =
  | { kind: "whole"; text: string }
  | { kind: "node"; node: NodeRef; sep: ": " | " "; rest: string }
  | { kind: "input"; node: NodeRef; inputLabel: string; tail: string };

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const or = (types: string[]) => types.join(" or ");

function parts(p: GraphProblem): Parts {
  const node = { id: p.nodeId ?? "", label: "label" in p.params ? p.params.label : "" };
  const input = (inputLabel: string, tail: string): Parts => ({ kind: "input", node, inputLabel, tail });
  switch (p.code) {
    case "duplicate_node_id":
      return { kind: "whole", text: `Node id ${node.id} is used twice.` };
    case "unknown_node_type":
      return { kind: "node", node, sep: " ", rest: `has an unknown type "${p.params.type}".` };
    case "node_version_newer": {
      const { saved, typeLabel, known } = p.params;
      return {
        kind: "node",
        node,
        sep: " ",
        rest: `was saved with version ${saved} of "${typeLabel}", but this server knows versions up to ${known} only.`,
      };
    }
    case "node_version_refused": {
      const { saved, typeLabel, known, reason } = p.params;
      return {
        kind: "node",
        node,
        sep: " ",
        rest: `was saved with version ${saved} of "${typeLabel}", which cannot be brought to version ${known}: ${reason}`,
      };
    }
    case "param_required":
      return input(p.params.inputLabel, "is required.");
    case "param_invalid":
      return input(p.params.inputLabel, `is not valid: ${p.params.reason}.`);
    case "one_of_required": {
      const labels = p.params.inputLabels.map((l) => `"${l}"`).join(", ");
      return { kind: "node", node, sep: ": ", rest: `one of ${labels} is required.` };
    }
    case "edge_missing_node":
      return { kind: "whole", text: `Edge ${p.params.edgeId} connects a node that does not exist.` };
    case "edge_unknown_handle":
      return {
        kind: "whole",
        text: `Edge ${p.params.edgeId} uses an unknown ${p.params.side} handle "${p.params.handle}".`,
      };
    case "connection_type_mismatch": {
      const { accepts, source, provides } = p.params;
      return input(
        p.params.inputLabel,
        `accepts ${or(accepts)}, but ${nodeName(source)} provides ${provides.join(", ")}.`,
      );
    }
    case "connection_required":
      return input(p.params.inputLabel, `needs a connection (${or(p.params.accepts)}).`);
    case "too_many_connections":
      return input(p.params.inputLabel, `takes one connection, but has ${p.params.count}.`);
    case "flow_empty":
      return { kind: "whole", text: "The flow is empty: add a chain or an agent." };
    case "node_not_connected":
      return { kind: "node", node, sep: " ", rest: "is not connected to the flow." };
    case "several_endings": {
      const names = p.params.endings.map(nodeName).join(", ");
      return {
        kind: "whole",
        text: `The flow has more than one ending node (${names}): connect ${nodeName(node)} to the rest or remove it.`,
      };
    }
    case "cannot_end_flow":
      return { kind: "node", node, sep: " ", rest: "cannot end a flow: connect it to a chain or an agent." };
    case "not_reaching_ending":
      return {
        kind: "node",
        node,
        sep: " ",
        rest: `is not connected to the ending node ${nodeName(p.params.ending)}.`,
      };
    case "cycle":
      return { kind: "whole", text: `The flow has a cycle: ${p.params.nodes.map(nodeName).join(" → ")}.` };
    case "invalid_shape":
      return { kind: "whole", text: `${p.params.path || "graph"}: ${p.params.reason}` };
    case "agentflow_start":
      return { kind: "whole", text: `An agentflow needs exactly one Start node; it has ${p.params.count}.` };
    case "agentflow_cycle":
      return {
        kind: "whole",
        text: `The flow goes round without a Loop node: ${p.params.nodes.map(nodeName).join(" → ")}. Go back with a Loop node instead.`,
      };
    case "step_not_reachable":
      return { kind: "node", node, sep: " ", rest: "is not reached from the Start node." };
    case "loop_target_not_upstream":
      return {
        kind: "node",
        node,
        sep: " ",
        rest: `goes back to "${p.params.target}", which is not an earlier node on its path.`,
      };
    case "unknown_variable":
      return input(p.params.inputLabel, `uses {{${p.params.variable}}}, which names nothing in this flow.`);
    case "other":
      return { kind: "whole", text: p.params.message };
  }
}

/** The sentence for a problem, for where it is shown (see ProblemScope). */
export function renderProblem(p: GraphProblem, scope: ProblemScope = "flow"): string {
  const x = parts(p);
  if (x.kind === "whole") return x.text;
  if (x.kind === "node") return scope === "flow" ? `Node ${nodeName(x.node)}${x.sep}${x.rest}` : capitalize(x.rest);
  if (scope === "input") return x.tail === "is required." ? "Required." : capitalize(x.tail);
  const rest = `input "${x.inputLabel}" ${x.tail}`;
  return scope === "flow" ? `Node ${nodeName(x.node)}: ${rest}` : capitalize(rest);
}

/** A problem as the API lists it: its data and its sentence. */
export function problemDetail(p: GraphProblem): GraphProblemDetail {
  return { ...p, message: renderProblem(p) };
}
