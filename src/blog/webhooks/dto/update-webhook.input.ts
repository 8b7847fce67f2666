import { Field, InputType } from '@nestjs/graphql';
import { ArrayMaxSize, IsBoolean, IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';

import { IsVisibleText, Trim, TrimToNull } from '../../common/validation';
import { WebhookEvent } from '../webhook-event';
import { WEBHOOK_DESCRIPTION_LENGTH, WEBHOOK_URL_LENGTH } from '../webhook.entity';

/** The fields of a webhook to change, with the rules of a new one; those left out stay. */
@InputType()
export class UpdateWebhookInput {
  @Field(() => String, {
    nullable: true,
    description: 'A new target, with the rules of createWebhook.',
  })
  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_URL_LENGTH)
  url?: string | null;

  @Field(() => [WebhookEvent], { nullable: true, description: 'Replaces its events.' })
  @IsOptional()
  @ArrayMaxSize(20)
  @IsEnum(WebhookEvent, { each: true })
  events?: WebhookEvent[] | null;

  @Field(() => String, { nullable: true, description: 'Null or blank removes it.' })
  @TrimToNull()
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_DESCRIPTION_LENGTH)
  @IsVisibleText()
  description?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'false stops its deliveries (those pending are cancelled); true starts them again, its count of failed events back to 0.',
  })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean | null;
}
