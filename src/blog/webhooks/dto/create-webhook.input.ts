import { Field, InputType } from '@nestjs/graphql';
import { ArrayMaxSize, IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';

import { IsVisibleText, Trim, TrimToNull } from '../../common/validation';
import { WebhookEvent } from '../webhook-event';
import { WEBHOOK_DESCRIPTION_LENGTH, WEBHOOK_URL_LENGTH } from '../webhook.entity';

/** The fields of a new webhook. */
@InputType()
export class CreateWebhookInput {
  @Field({
    description: `Where deliveries go: an absolute https URL (http only with WEBHOOK_ALLOW_HTTP), with no user name, password or fragment; at most ${WEBHOOK_URL_LENGTH} characters. Its host is resolved at each send, and private or metadata addresses are refused then.`,
  })
  @Trim()
  @IsString()
  @MaxLength(WEBHOOK_URL_LENGTH)
  url: string;

  @Field(() => [WebhookEvent], {
    description: 'The events it is told of: at least one, PING excepted (testWebhook sends that).',
  })
  @ArrayMaxSize(20)
  @IsEnum(WebhookEvent, { each: true })
  events: WebhookEvent[];

  @Field(() => String, {
    nullable: true,
    description: `What it is for, for the admins: trimmed, at most ${WEBHOOK_DESCRIPTION_LENGTH} characters.`,
  })
  @TrimToNull()
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_DESCRIPTION_LENGTH)
  @IsVisibleText()
  description?: string | null;
}
