import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AssetHashType, DockerImage, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AuthorizationType,
  AwsIntegration,
  type IntegrationOptions,
  type IntegrationResponse,
  type Method,
  type MethodResponse,
  type RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy, PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { BucketDeployment, CacheControl, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct, type IConstruct } from 'constructs';
import {
  appDirectory,
  assetCacheControl,
  buildSettingsPage,
  contentTypes,
  indexCacheControl,
  indexFile,
  missingFileHeaders,
  pageHeaders,
  pageResourcePaths,
} from '../settings-page';
import { logRetention } from '../log-retention';
import { nagPolicy, nagResource } from '../nag';

/**
 * The bundling of the page's asset: `buildSettingsPage()`'s files written where the CDK asks, `index.html` at the top
 * and the hashed files under `assets/`, as the local server serves them.
 */
export function writeSettingsPage(outputDir: string): void {
  for (const [path, file] of buildSettingsPage()) {
    mkdirSync(dirname(join(outputDir, path)), { recursive: true });
    writeFileSync(join(outputDir, path), file.body);
  }
}

/**
 * Each kind of file, uploaded by a deployment of its own so that every object gets its exact type and cache rule (S3
 * keeps them as the object's metadata and answers them as headers). The hashed files are never pruned: a tab still
 * holding the previous page must still load the files it names. The page goes last, once the files it names are in.
 */
export const pageDeployments = [
  { id: 'Scripts', include: 'assets/*.js', contentType: contentTypes['.js'], cacheControl: assetCacheControl },
  { id: 'Styles', include: 'assets/*.css', contentType: contentTypes['.css'], cacheControl: assetCacheControl },
  { id: 'Icons', include: 'assets/*.svg', contentType: contentTypes['.svg'], cacheControl: assetCacheControl },
  { id: 'Index', include: indexFile, contentType: contentTypes['.html'], cacheControl: indexCacheControl },
] as const;

/**
 * A header as an integration response sets it, a static value: "STATIC_VALUE is a string literal and must be
 * enclosed within a pair of single quotes" ("Parameter mapping source reference for REST APIs in API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/rest-api-parameter-mapping-sources.html). Only that
 * outer pair is taken off: the `'self'` and `'none'` of the Content-Security-Policy stay as they are.
 */
export const staticValue = (value: string): string => `'${value}'`;

const mapped = (headers: Readonly<Record<string, string>>, to: (value: string) => string): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [`method.response.header.${name}`, to(value)]));

/** The headers the 200 takes from S3's answer: the type and cache rule each object was uploaded with. */
const fromObject = { 'Content-Type': 'Content-Type', 'Cache-Control': 'Cache-Control' } as const;

/**
 * `…/app` sent to `…/app/` as the local server does (tools/app/page.ts): the page names its files relative to itself,
 * which resolves under the stage only from `…/app/`. API Gateway routes `/app` and `/app/` to the one resource, so
 * the page's own answer decides, from the path as the browser wrote it (`$context.path`, "The request path", stage
 * or custom domain base path included: "Variables for data transformations for API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-mapping-template-reference.html). Status
 * and Location are overridden as "Override your API's request and response parameters and status codes for REST APIs
 * in API Gateway" shows (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-override-request-response-parameters.html),
 * each once; otherwise the page's bytes are passed on as they are (`$input.body`).
 */
export const pageRedirectTemplate =
  "#if($context.path.endsWith('/'))$input.body#{else}" +
  '#set($context.responseOverride.status = 301)' +
  '#set($context.responseOverride.header.Location = "$context.path/")#end';

/** S3's error document (XML naming its request ids) is not passed on: no output, so an empty body. */
export const emptyBodyTemplate = "## S3's error document is not passed on.";

/**
 * The media type each template is filed under. API Gateway picks a response template by the request's `Accept`
 * (only its first media type), `application/json` when there is none, and the first template when none matches;
 * with one template per response, every request gets it ("Select a VTL mapping template", in "Amazon API Gateway API
 * request and response data mapping reference",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/request-response-data-mappings.html; "Content type
 * conversions in API Gateway", https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-payload-encodings-workflow.html).
 * Not `application/json`: an empty template under that key would pass S3's body through instead.
 */
export const templateMediaType = 'text/html';

/**
 * S3 answers 403 for a key that does not exist when the caller may not list the bucket ("GetObject", Amazon S3 API
 * Reference, https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html): every 4xx is the page's 404, every
 * 5xx its 500. "For all other HTTP and AWS back ends, the HTTP status code is matched" by the selection pattern, and
 * the response without one is the default ("IntegrationResponse", Amazon API Gateway API Reference,
 * https://docs.aws.amazon.com/apigateway/latest/api/API_IntegrationResponse.html; "Set up an integration response in
 * API Gateway", https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-integration-settings-integration-response.html).
 */
export const errorResponses = [
  { selectionPattern: '4\\d{2}', statusCode: '404' },
  { selectionPattern: '5\\d{2}', statusCode: '500' },
] as const;

const integrationResponses = (okTemplate: string | undefined): IntegrationResponse[] => [
  {
    statusCode: '200',
    responseParameters: {
      ...mapped(pageHeaders, staticValue),
      ...mapped(fromObject, (name) => `integration.response.header.${name}`),
    },
    ...(okTemplate === undefined ? {} : { responseTemplates: { [templateMediaType]: okTemplate } }),
  },
  ...errorResponses.map((response) => ({
    ...response,
    responseParameters: { ...mapped(pageHeaders, staticValue), ...mapped(missingFileHeaders, staticValue) },
    responseTemplates: { [templateMediaType]: emptyBodyTemplate },
  })),
];

/** API Gateway drops a header its method response does not declare: each one any answer may carry is declared. */
const methodResponses = (okHeaders: readonly string[]): MethodResponse[] => {
  const declared = (names: readonly string[]) =>
    Object.fromEntries(names.map((name) => [`method.response.header.${name}`, true]));
  return [
    { statusCode: '200', responseParameters: declared([...Object.keys(pageHeaders), ...okHeaders]) },
    ...errorResponses.map(({ statusCode }) => ({
      statusCode,
      responseParameters: declared([...Object.keys(pageHeaders), ...Object.keys(missingFileHeaders)]),
    })),
  ];
};

/**
 * The CDK's own bucket-deployment function (one for the stack, shared by the three deployments): it runs only while
 * CloudFormation creates or updates them, with the grants the CDK gives it; its findings are acknowledged on it alone.
 * The resources it is granted are named as the stack resolves them: the page's bucket, and the CDK's assets bucket
 * the page's asset was uploaded to (`cdk-<qualifier>-assets-<account>-<region>`, the account and region written out
 * when the stack knows them).
 */
function acknowledgeDeploymentHandler(handler: IConstruct, buckets: { page: IBucket; assets: IBucket }): void {
  const logsPolicy = ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole');
  const cdkRuntime =
    'The CDK’s bucket-deployment function: aws-cdk-lib sets its Python runtime and moves it forward with its own releases (package.json pins aws-cdk-lib); it runs only during deployments.';
  const onlyWhileDeploying =
    'Runs only while CloudFormation creates or updates the page’s deployments, which wait for its answer: a failure fails the deployment and rolls it back, in the stack’s events and its log group (30 days).';
  Validations.of(handler).acknowledge(
    {
      id: `AwsSolutions-IAM4[${nagPolicy(handler, logsPolicy)}]`,
      reason:
        'The CDK’s bucket-deployment function writes its own logs with AWS’s policy for exactly that; the role is the CDK’s, used by nothing else.',
    },
    ...['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:Abort*', 's3:DeleteObject*'].map((action) => ({
      id: `AwsSolutions-IAM5[Action::${action}]`,
      reason:
        'The CDK’s grants to its bucket-deployment function: reading the page’s asset from the CDK’s assets bucket, writing the page’s bucket. Nothing is deleted: no deployment prunes, and each keeps its files when removed.',
    })),
    {
      id: `AwsSolutions-IAM5[${nagResource(handler, buckets.assets.arnForObjects('*'))}]`,
      reason: 'The CDK’s grant to read the page’s asset, a zip in the CDK’s own assets bucket named by its hash.',
    },
    {
      id: `AwsSolutions-IAM5[${nagResource(handler, buckets.page.arnForObjects('*'))}]`,
      reason:
        'The CDK’s grant to write the page’s files, named by their content’s hash at each release, into their own bucket.',
    },
    { id: 'AwsSolutions-L1', reason: cdkRuntime },
    { id: 'Serverless-LambdaLatestVersion', reason: cdkRuntime },
    { id: 'Serverless-LambdaDLQ', reason: onlyWhileDeploying },
    {
      id: 'Serverless-LambdaTracing',
      reason: `${onlyWhileDeploying} Its work is one copy from the assets bucket; a trace would add nothing.`,
    },
  );
}

export type SettingsPageProps = { api: RestApi };

/**
 * The settings page on AWS, on the API's own stage (docs/adr/0015-settings-page-served-by-api-gateway.md): a private
 * bucket that the stack's deployments fill from the page's build, and `GET /app`, `GET /app/{proxy+}` reading it
 * through API Gateway's S3 integration with a role that may only read its objects. No authorizer: the page holds no
 * secret and no data; everything it shows comes from the settings API, whose routes keep theirs.
 */
export class SettingsPage extends Construct {
  constructor(scope: Construct, id: string, props: SettingsPageProps) {
    super(scope, id);
    const bucket = new Bucket(this, 'Bucket', {
      /** S3's own keys: API Gateway's role reads the objects with no KMS grant to maintain. */
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      /**
       * Each release overwrites index.html: the previous one stays a month as a noncurrent version, to put back by
       * hand if a release's page must be withdrawn before the next deployment.
       */
      versioned: true,
      lifecycleRules: [
        {
          id: 'ExpireReplacedPages',
          noncurrentVersionExpiration: Duration.days(30),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      /**
       * Retained: CloudFormation deletes only an empty bucket, and this one keeps every release's files (never
       * pruned), so a stack deletion would fail on it; emptying it on deletion would take a custom-resource function
       * of its own. Nothing in it is secret or personal, and all of it is rebuilt from the repository.
       */
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'No server access logs: the bucket holds the settings page’s public files, read only by API Gateway with its own role, whose requests the API’s access logs already record; written only by the stack’s deployments.',
    });

    /**
     * One asset, bundled in-process by esbuild (`ILocalBundling`), hashed on its output: a change of the page's
     * sources, of its dependencies or of the build itself makes a new asset. Docker is never run: `tryBundle`
     * returns true or throws; the image is a required property only.
     */
    const pageSource: ISource = Source.asset(appDirectory, {
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        image: DockerImage.fromRegistry('scratch'),
        local: {
          tryBundle: (outputDir) => {
            writeSettingsPage(outputDir);
            return true;
          },
        },
      },
    });
    const deploymentLogs = new LogGroup(this, 'DeploymentLogs', { retention: logRetention });
    const deployed = pageDeployments.map(
      (kind) =>
        new BucketDeployment(this, kind.id, {
          sources: [pageSource],
          destinationBucket: bucket,
          exclude: ['*'],
          include: [kind.include],
          contentType: kind.contentType,
          cacheControl: [CacheControl.fromString(kind.cacheControl)],
          prune: false,
          logGroup: deploymentLogs,
        }),
    );
    const index = deployed.at(-1)!;
    for (const files of deployed.slice(0, -1)) index.node.addDependency(files);
    /** The page's asset, as the deployments' source made it (`Source.asset` adds it to each deployment). */
    const [pageAsset] = index.node.findAll().filter((construct): construct is Asset => construct instanceof Asset);
    acknowledgeDeploymentHandler(index.handlerRole.node.scope!, { page: bucket, assets: pageAsset!.bucket });

    const reader = new Role(this, 'ReadRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: "API Gateway: reads the settings page's files, nothing else",
      inlinePolicies: {
        ReadPageFiles: new PolicyDocument({
          statements: [new PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects('*')] })],
        }),
      },
    });
    Validations.of(reader).acknowledge({
      id: `AwsSolutions-IAM5[${nagResource(reader, bucket.arnForObjects('*'))}]`,
      reason:
        'Every object of the page’s own bucket: its files are named by their content’s hash at each release, and s3:GetObject is the only action.',
    });

    /**
     * GetObject in S3's path style, `<bucket>/<key>`, a key's slashes included ("GetObject", Amazon S3 API
     * Reference): the page's key, or the path under `/app/` as it came (`{proxy+}`, `assets/main-<hash>.js`).
     */
    const s3Read = (key: string, options: Pick<IntegrationOptions, 'requestParameters' | 'integrationResponses'>) =>
      new AwsIntegration({
        service: 's3',
        integrationHttpMethod: 'GET',
        path: `${bucket.bucketName}/${key}`,
        options: { credentialsRole: reader, ...options },
      });
    const noAuthorizer = { authorizationType: AuthorizationType.NONE } as const;
    const methods: Method[] = [
      props.api.root
        .resourceForPath(pageResourcePaths.page)
        .addMethod('GET', s3Read(indexFile, { integrationResponses: integrationResponses(pageRedirectTemplate) }), {
          ...noAuthorizer,
          /** Location: what the redirect's override sets (pageRedirectTemplate). */
          methodResponses: methodResponses([...Object.keys(fromObject), 'Location']),
        }),
      props.api.root.resourceForPath(pageResourcePaths.files).addMethod(
        'GET',
        s3Read('{proxy}', {
          requestParameters: { 'integration.request.path.proxy': 'method.request.path.proxy' },
          integrationResponses: integrationResponses(undefined),
        }),
        {
          ...noAuthorizer,
          requestParameters: { 'method.request.path.proxy': true },
          methodResponses: methodResponses(Object.keys(fromObject)),
        },
      ),
    ];
    for (const method of methods)
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'The settings page’s static files: no secret and no data in them; everything the page shows comes from the settings API, whose routes keep the authorizer.',
      });
  }
}
