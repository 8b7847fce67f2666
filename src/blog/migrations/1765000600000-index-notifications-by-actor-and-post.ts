import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

const BY_ACTOR = 'IDX_notifications_actor';
const BY_ACTOR_AND_POST = 'IDX_notifications_actor_post';

/**
 * A like, a follow and their undoing look for the unread notification of the same actor and post
 * (or of no post): one per liker and post. With an index on the actor alone, SQLite read every
 * notification the actor ever raised to find it, and an author who publishes raises one for
 * each follower with each post: after 4,600 posts by an author with two followers, each like
 * they gave read 9,300 rows, and their likes at 10 connections fell from 3,300 to 1,300 a
 * second. The index on the actor and the post finds the one row at once, and still serves the
 * cascade from a deleted actor and the notifications of one publication.
 */
export class IndexNotificationsByActorAndPost1765000600000 implements MigrationInterface {
  name = 'IndexNotificationsByActorAndPost1765000600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('notifications', BY_ACTOR);
    await queryRunner.createIndex(
      'notifications',
      new TableIndex({ name: BY_ACTOR_AND_POST, columnNames: ['actor_id', 'post_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('notifications', BY_ACTOR_AND_POST);
    await queryRunner.createIndex(
      'notifications',
      new TableIndex({ name: BY_ACTOR, columnNames: ['actor_id'] }),
    );
  }
}
