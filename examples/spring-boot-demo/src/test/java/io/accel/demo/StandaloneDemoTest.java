package io.accel.demo;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/** The demo on a standalone in-memory Accel store: no database at all. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "spring.datasource.url=jdbc:accel:mem:demo_test", "demo.users=50"})
@ActiveProfiles("standalone")
class StandaloneDemoTest extends DemoBehaviour {
}
