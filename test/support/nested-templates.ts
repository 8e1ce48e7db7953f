import { NestedStack, type CfnResource, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The nested stacks of `stack` (the settings API's, infra/cdk/constructs/settings-functions.ts). */
export const nestedStacksOf = (stack: Stack): NestedStack[] =>
  stack.node
    .findAll()
    .filter((construct) => NestedStack.isNestedStack(construct))
    .map((construct) => construct as NestedStack);

/** `value` with every JSON object `replace` answers for replaced by its answer, deeply. */
function substituted(value: unknown, replace: (json: Json) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => substituted(item, replace));
  if (typeof value !== 'object' || value === null) return value;
  const replacement = replace(value as Json);
  if (replacement !== undefined) return substituted(replacement, replace);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituted(item, replace)]));
}

/**
 * The stack's template as if it were one: the nested stacks' resources added to the main template's, each
 * nested parameter replaced by the main template's value the CDK passes it (`{ "Ref": "referenceto…" }` → the
 * table's `Ref`), and each `Fn::GetAtt` of a nested stack's output by that output's value (the method's
 * integration names the nested function's logical id again). So a test reads a function, its role, its alarm
 * and its method alike wherever the CDK put them. The nested stack resources themselves stay.
 */
export function flattenedTemplate(stack: Stack): Json {
  const main = Template.fromStack(stack).toJSON();
  const resources: Record<string, Json> = { ...(main.Resources as Record<string, Json>) };
  const outputsByStack = new Map<string, Record<string, Json>>();
  for (const nestedStack of nestedStacksOf(stack)) {
    const logicalId = stack.resolve((nestedStack.nestedStackResource as CfnResource).logicalId) as string;
    const parameters = (resources[logicalId]!.Properties.Parameters ?? {}) as Record<string, unknown>;
    const withParameters = substituted(Template.fromStack(nestedStack).toJSON(), (json) =>
      typeof json.Ref === 'string' && json.Ref in parameters ? (parameters[json.Ref] as Json) : undefined,
    ) as Json;
    Object.assign(resources, withParameters.Resources as Record<string, Json>);
    outputsByStack.set(logicalId, (withParameters.Outputs ?? {}) as Record<string, Json>);
  }
  const nestedOutput = (json: Json): unknown => {
    const [logicalId, attribute] = (json['Fn::GetAtt'] ?? []) as [string?, string?];
    const outputs = logicalId === undefined ? undefined : outputsByStack.get(logicalId);
    if (outputs === undefined || !attribute?.startsWith('Outputs.')) return undefined;
    return outputs[attribute.slice('Outputs.'.length)]!.Value as Json;
  };
  return substituted({ ...main, Resources: resources }, nestedOutput) as Json;
}
