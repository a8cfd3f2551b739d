import { CfnResource, Validations } from 'aws-cdk-lib';
import { rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/** A kind of wildcard that CDK generates, and why it is acceptable there. */
export interface WildcardReason {
  /** Matched against the finding, e.g. `Action::s3:GetObject*` or `Resource::arn:aws:logs:...:*`. */
  finding: RegExp;
  reason: string;
}

/**
 * cdk-nag v3 acknowledges an AwsSolutions-IAM5 finding only by its exact id
 * (`AwsSolutions-IAM5[Resource::<logical id>/*]`), and CDK-generated policies name generated
 * logical ids, bucket names and, across stacks, the rendered reference. This computes the
 * findings of every IAM policy under `scope` with cdk-nag's own rule and acknowledges each one
 * that a reason explains. A finding that no reason explains is left alone, so cdk-nag still fails
 * synthesis on it.
 *
 * The work is deferred to a construct validation: CDK runs those after cross-stack references are
 * resolved and before validation plugins, so the findings computed are the ones cdk-nag sees.
 */
export function acknowledgeWildcards(scope: IConstruct, reasons: readonly WildcardReason[]): void {
  scope.node.addValidation({
    validate: () => {
      for (const node of scope.node.findAll()) {
        if (!CfnResource.isCfnResource(node)) continue;
        const result = rules.iam.IAMNoWildcardPermissions(node);
        if (!Array.isArray(result)) continue;
        for (const finding of result) {
          const explained = reasons.find((r) => r.finding.test(finding));
          if (explained) Validations.of(node).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason: explained.reason });
        }
      }
      return [];
    },
  });
}
