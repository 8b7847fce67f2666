import { Args, Resolver } from '@nestjs/graphql';

import { ReportCommentArgs } from './dto/report-comment.args';
import { ReportPostArgs } from './dto/report-post.args';
import { ReportsService } from './reports.service';
import { CurrentViewer } from '../auth/viewer.decorator';
import { BlogMutation, BlogResolverEnhancers } from '../blog-resolver.decorator';
import { inputValidationPipe } from '../common/validation';
import { Viewer } from '../users/viewer';

/** Reports of posts and comments, by signed-in readers. */
@Resolver()
@BlogResolverEnhancers()
export class ReportsResolver {
  constructor(private readonly reports: ReportsService) {}

  @BlogMutation(() => Boolean, {
    description:
      'Reports a published post to the moderators. Once per post: reporting it again answers true and changes nothing. Not your own post (BAD_USER_INPUT); at most REPORTS_PER_HOUR reports an hour (TOO_MANY_REQUESTS).',
  })
  reportPost(@Args(inputValidationPipe) args: ReportPostArgs, @CurrentViewer() viewer: Viewer) {
    return this.reports.reportPost(args.postId, args.reason, args.note ?? null, viewer);
  }

  @BlogMutation(() => Boolean, {
    description:
      'Reports a comment you see to the moderators. Once per comment: reporting it again answers true and changes nothing. Not your own comment (BAD_USER_INPUT); at most REPORTS_PER_HOUR reports an hour (TOO_MANY_REQUESTS).',
  })
  reportComment(
    @Args(inputValidationPipe) args: ReportCommentArgs,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.reports.reportComment(args.commentId, args.reason, args.note ?? null, viewer);
  }
}
