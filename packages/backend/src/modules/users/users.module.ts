import { Module } from '@nestjs/common';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';
import { UsersRepository } from './users.repository.js';
import { UsersLookup } from './users.lookup.js';

@Module({
  controllers: [UsersController],
  providers: [UsersRepository, UsersLookup, UsersService],
  exports: [UsersLookup],
})
export class UsersModule {}
